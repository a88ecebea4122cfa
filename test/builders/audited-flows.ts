import { randomBytes } from 'node:crypto';
import { InMemoryCreditLedger } from '../../adapters/in-memory/in-memory-credit-ledger';
import { Sha256TokenHasher } from '../../adapters/crypto/sha256-token-hasher';
import type { Database } from '../../adapters/postgres/database';
import { PostgresAuditLog } from '../../adapters/postgres/postgres-audit-log';
import { PostgresCreditLedger } from '../../adapters/postgres/postgres-credit-ledger';
import { PostgresEmailOutbox } from '../../adapters/postgres/postgres-email-outbox';
import { PostgresApiKeyRepository } from '../../adapters/postgres/postgres-api-key-repository';
import { PostgresInvitationRepository } from '../../adapters/postgres/postgres-invitation-repository';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresSessionStore } from '../../adapters/postgres/postgres-session-store';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import { BoundedMemoryRateLimiter } from '../../adapters/rate-limit/bounded-memory-rate-limiter';
import type { UserCaller } from '../../core/access/caller';
import type { RoleName } from '../../core/access/role';
import type { TokenGenerator } from '../../core/accounts/crypto.port';
import type { User } from '../../core/accounts/user';
import type { AuditAction, AuditEvent } from '../../core/audit/audit-event';
import type { AuditEventRepository } from '../../core/audit/audit-event-repository.port';
import type { AuditLog } from '../../core/audit/audit-log.port';
import type { BillingEvent, SubscriptionChangedEvent } from '../../core/billing/billing-provider.port';
import type { BillingDeps } from '../../core/billing/billing-deps';
import type { CreditLedger } from '../../core/billing/credit-ledger.port';
import { DEFAULT_CREDIT_PACKS } from '../../core/billing/credit-pack';
import { FulfilCreditPack } from '../../core/billing/fulfil-credit-pack';
import { HandleBillingWebhook } from '../../core/billing/handle-billing-webhook.use-case';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import { VerifyCreditPackCheckout } from '../../core/billing/verify-credit-pack-checkout.use-case';
import { AcceptInvitation } from '../../core/organizations/accept-invitation.use-case';
import { ActivateMember } from '../../core/organizations/activate-member.use-case';
import { ActivateOrganization } from '../../core/organizations/activate-organization.use-case';
import { ChangeMemberRole } from '../../core/organizations/change-member-role.use-case';
import { CreateInvitation } from '../../core/organizations/create-invitation.use-case';
import { CreateOrganization } from '../../core/organizations/create-organization.use-case';
import { IdpPendingInvitations } from '../../core/organizations/idp-pending-invitations';
import type { OrganizationsDeps } from '../../core/organizations/organizations-deps';
import { RemoveMember } from '../../core/organizations/remove-member.use-case';
import { RevokeInvitation } from '../../core/organizations/revoke-invitation.use-case';
import { SuspendMember } from '../../core/organizations/suspend-member.use-case';
import { SuspendOrganization } from '../../core/organizations/suspend-organization.use-case';
import { UpdateOrganizationSettings } from '../../core/organizations/update-organization-settings.use-case';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import { FakeBillingProvider } from '../fakes/fake-billing-provider';
import type { FakeClock } from '../support/fake-clock';
import { recordingLogger } from '../support/recording-logger';
import { PlainPasswordHasher, TEST_ORIGIN } from './accounts';
import { organizationsHarness, type OrganizationsHarness } from './organizations';

/**
 * Every audited flow of organizations and billing as one table, over a world that runs on the
 * in-memory store or on PostgreSQL alike: the transaction proofs (an event that cannot be written
 * takes its change down, a change that cannot commit leaves no event) and the "never a secret"
 * property run every row. A flow added later is one more row.
 */

/** What a careless event could leak: each flow passes the ones it handles where the flow takes them. */
export interface FlowSecrets {
  password: string;
  /** What a password is changed to. */
  newPassword: string;
  sessionToken: string;
  totpCode: string;
  recoveryCode: string;
  invitationToken: string;
  resetToken: string;
  apiKey: string;
}

/** Hands out the tokens a flow asks for (so the test knows them), then random ones. */
export class ScriptedTokenGenerator implements TokenGenerator {
  private readonly queue: string[] = [];

  next(...tokens: string[]): void {
    this.queue.push(...tokens);
  }

  generate(): string {
    return this.queue.shift() ?? randomBytes(32).toString('base64url');
  }
}

export interface AuditWorld {
  /** What every organizations use case is built from: its `audit` and `unitOfWork` are the store's. */
  org: OrganizationsDeps;
  /** What the billing use cases are built from, on the same store (`creditPacks` is built by the flows). */
  billing: Omit<BillingDeps, 'creditPacks' | 'products' | 'provider'>;
  subscriptions: SubscriptionRepository;
  provider: FakeBillingProvider;
  tokens: ScriptedTokenGenerator;
  clock: FakeClock;
  /** The organization's events, oldest first. */
  events(organizationId: number): Promise<AuditEvent[]>;
  /** Every event of every organization, oldest first. */
  allEvents(): Promise<AuditEvent[]>;
  /** A new organization with one user per role, in that order, each with `password`. */
  newOrganization(roles: RoleName[], password?: string): Promise<{ organizationId: number; users: User[] }>;
  /** The in-memory harness, when the world is in memory (account flows run there only). */
  memory?: OrganizationsHarness;
}

/** A user acting through a request from TEST_ORIGIN. */
export const callerOf = (user: User): UserCaller => ({
  kind: 'user',
  userId: user.id,
  organizationId: user.organizationId,
  role: user.role,
  sessionId: 0,
  mfaSatisfied: true,
  origin: TEST_ORIGIN,
});

export interface PreparedFlow {
  /** The organization whose log the run writes to; null for one the run creates. */
  organizationId: number | null;
  run(): Promise<unknown>;
  /** Secrets the service made during the run (session tokens, TOTP secrets, recovery codes): no event may hold them either. */
  revealed?: string[];
}

export interface AuditedFlow {
  name: string;
  /** The events a successful run records, in order, all in the prepared organization's log. */
  actions: AuditAction[];
  /** The SQL tables the change writes, besides audit_event: where the PostgreSQL proof makes the change fail. */
  tables: string[];
  /** Runs only in memory (it needs the accounts harness). */
  memoryOnly?: boolean;
  prepare(world: AuditWorld, secrets: FlowSecrets): Promise<PreparedFlow>;
}

/** Tests can break the store's audit log and unit of work through these, on either world. */
export class Faults {
  failEvent = false;
  failCommit = false;
}

class FaultyAuditLog implements AuditLog {
  constructor(
    private readonly inner: AuditLog,
    private readonly faults: Faults,
  ) {}

  record(event: Parameters<AuditLog['record']>[0]): Promise<void> {
    if (this.faults.failEvent) return Promise.reject(new Error('audit insert failed'));
    return this.inner.record(event);
  }
}

/** Fails every transaction at its end, after all its work ran: as a commit that fails would. */
class FaultyUnitOfWork implements UnitOfWork {
  constructor(
    private readonly inner: UnitOfWork,
    private readonly faults: Faults,
  ) {}

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.inner.transaction(async () => {
      const result = await work();
      if (this.faults.failCommit) throw new Error('commit failed');
      return result;
    });
  }
}

interface WorldParts {
  base: Omit<OrganizationsDeps, 'audit' | 'unitOfWork' | 'tokenGenerator' | 'clock'>;
  audit: AuditLog & AuditEventRepository;
  unitOfWork: UnitOfWork;
  subscriptions: SubscriptionRepository;
  ledger: CreditLedger;
  clock: FakeClock;
  tokens: ScriptedTokenGenerator;
  allEvents(): Promise<AuditEvent[]>;
  memory?: OrganizationsHarness;
}

function assemble(parts: WorldParts, faults: Faults): AuditWorld {
  const audit = new FaultyAuditLog(parts.audit, faults);
  const unitOfWork = new FaultyUnitOfWork(parts.unitOfWork, faults);
  const org: OrganizationsDeps = { ...parts.base, audit, unitOfWork, tokenGenerator: parts.tokens, clock: parts.clock };
  let counter = 0;
  const world: AuditWorld = {
    org,
    billing: {
      subscriptions: parts.subscriptions,
      organizations: org.organizations,
      packs: DEFAULT_CREDIT_PACKS,
      ledger: parts.ledger,
      tokenHasher: org.tokenHasher,
      unitOfWork,
      audit,
      clock: parts.clock,
      logger: recordingLogger(),
      settings: { baseWebUrl: 'https://app.example.com' },
    },
    subscriptions: parts.subscriptions,
    provider: new FakeBillingProvider(),
    tokens: parts.tokens,
    clock: parts.clock,
    events: async (organizationId) => (await parts.audit.listNewestFirst(organizationId, {}, { limit: 1000 })).reverse(),
    allEvents: parts.allEvents,
    async newOrganization(roles, password = 'password-123') {
      counter += 1;
      const organizationId = (await org.organizations.create({ name: `Audited ${counter}` })).id;
      const users: User[] = [];
      for (const role of roles) {
        counter += 1;
        users.push(
          await org.users.create({
            organizationId,
            email: `${role}-${counter}-${randomBytes(4).toString('hex')}@example.com`,
            passwordHash: await org.passwordHasher.hash(password),
            firstName: 'Ada',
            lastName: 'Lovelace',
            role,
            emailVerified: true,
          }),
        );
      }
      return { organizationId, users };
    },
    ...(parts.memory ? { memory: parts.memory } : {}),
  };
  return world;
}

/** The world on the in-memory store (the organizations harness's), with the faults given. */
export function memoryAuditWorld(faults = new Faults()): AuditWorld {
  const h = organizationsHarness();
  const tokens = new ScriptedTokenGenerator();
  const { audit: _audit, unitOfWork: _unitOfWork, tokenGenerator: _tokenGenerator, clock: _clock, ...base } = h.orgDeps;
  return assemble(
    {
      base,
      audit: h.auditLog,
      unitOfWork: h.store.unitOfWork,
      subscriptions: h.subscriptions,
      ledger: new InMemoryCreditLedger(h.store),
      clock: h.clock,
      tokens,
      allEvents: () => h.auditLog.recorded(),
      memory: h,
    },
    faults,
  );
}

/** The same world on a migrated PostgreSQL database whose clock is `clock`. */
export function postgresAuditWorld(database: Database, clock: FakeClock, faults = new Faults()): AuditWorld {
  const subscriptions = new PostgresSubscriptionRepository(database);
  const audit = new PostgresAuditLog(database);
  return assemble(
    {
      base: {
        users: new PostgresUserRepository(database),
        organizations: new PostgresOrganizationRepository(database),
        sessions: new PostgresSessionStore(database),
        invitations: new PostgresInvitationRepository(database),
        apiKeys: new PostgresApiKeyRepository(database),
        passwordHasher: new PlainPasswordHasher(),
        tokenHasher: new Sha256TokenHasher(),
        outbox: new PostgresEmailOutbox(database),
        rateLimiter: new BoundedMemoryRateLimiter(clock),
        settings: { appName: 'tenantkit', baseWebUrl: 'https://app.example.com' },
        logger: recordingLogger(),
        meteredBilling: subscriptions,
      },
      audit,
      unitOfWork: database,
      subscriptions,
      ledger: new PostgresCreditLedger(database),
      clock,
      tokens: new ScriptedTokenGenerator(),
      allEvents: async () => {
        const organizations = await database.db.selectFrom('organization').select('id').execute();
        const events = await Promise.all(organizations.map(({ id }) => audit.listNewestFirst(id, {}, { limit: 1000 })));
        return events.flat().sort((a, b) => a.id - b.id);
      },
    },
    faults,
  );
}

const T0 = new Date('2026-11-21T10:00:00.000Z');

const subscriptionEvent = (organizationId: number, overrides: Partial<SubscriptionChangedEvent> = {}): SubscriptionChangedEvent => ({
  id: `evt_${randomBytes(6).toString('hex')}`,
  kind: 'subscription-changed',
  occurredAt: T0,
  organizationId,
  customerId: `cus_${organizationId}`,
  subscriptionId: `sub_${organizationId}`,
  status: 'active',
  priceId: 'price_pro',
  productId: 'prod_pro',
  currentPeriodStart: T0,
  currentPeriodEnd: new Date('2026-12-21T10:00:00.000Z'),
  cancelAtPeriodEnd: false,
  ...overrides,
});

function webhookOf(world: AuditWorld) {
  const handle = new HandleBillingWebhook({ ...world.billing, provider: world.provider, creditPacks: new FulfilCreditPack(world.billing) });
  return (event: BillingEvent) => handle.execute(FakeBillingProvider.signed(event));
}

/** An organization with a customer (as checkout creates it) and, when `status` is given, a subscription in it. */
async function billedOrganization(world: AuditWorld, status?: SubscriptionChangedEvent['status']) {
  const { organizationId, users } = await world.newOrganization(['org_admin']);
  await world.subscriptions.saveCustomer(organizationId, `cus_${organizationId}`, world.clock.now());
  if (status) await webhookOf(world)(subscriptionEvent(organizationId, { status }));
  return { organizationId, admin: users[0]! };
}

/** A pending invitation into a new organization whose token is `token`. */
async function pendingInvitation(world: AuditWorld, token: string, email = `invitee-${randomBytes(4).toString('hex')}@example.com`) {
  const { organizationId, users } = await world.newOrganization(['org_admin']);
  world.tokens.next(token);
  const invitation = await new CreateInvitation(world.org).execute(callerOf(users[0]!), { email, role: 'member' });
  return { organizationId, admin: users[0]!, invitation, email };
}

/** An admin acting on a member of their organization (both with the secret password). */
async function onMember(world: AuditWorld, secrets: FlowSecrets, act: (admin: UserCaller, memberId: number) => Promise<unknown>, first?: typeof act): Promise<PreparedFlow> {
  const { organizationId, users } = await world.newOrganization(['org_admin', 'member'], secrets.password);
  const admin = callerOf(users[0]!);
  if (first) await first(admin, users[1]!.id);
  return { organizationId, run: () => act(admin, users[1]!.id) };
}

export const ORGANIZATION_FLOWS: AuditedFlow[] = [
  {
    name: 'an admin invites an email',
    actions: ['invitation.created'],
    tables: ['invitation', 'email_outbox'],
    async prepare(world, secrets) {
      const { organizationId, users } = await world.newOrganization(['org_admin'], secrets.password);
      return {
        organizationId,
        run: () => {
          world.tokens.next(secrets.invitationToken);
          return new CreateInvitation(world.org).execute(callerOf(users[0]!), { email: 'newcomer@example.com', role: 'member' });
        },
      };
    },
  },
  {
    name: 'a sys_admin creates an organization, inviting its first admin',
    actions: ['invitation.created'],
    tables: ['organization', 'invitation', 'email_outbox'],
    async prepare(world, secrets) {
      const { users } = await world.newOrganization(['sys_admin'], secrets.password);
      return {
        organizationId: null,
        run: () => {
          world.tokens.next(secrets.invitationToken);
          return new CreateOrganization(world.org).execute(callerOf(users[0]!), { name: 'Initech', adminEmail: 'boss@initech.test' });
        },
      };
    },
  },
  {
    name: 'an admin revokes an invitation',
    actions: ['invitation.revoked'],
    tables: ['invitation'],
    async prepare(world, secrets) {
      const { organizationId, admin, invitation } = await pendingInvitation(world, secrets.invitationToken);
      return { organizationId, run: () => new RevokeInvitation(world.org).execute(callerOf(admin), { invitationId: invitation.id }) };
    },
  },
  {
    name: 'an invitee accepts with the emailed link and a password',
    actions: ['member.joined'],
    tables: ['invitation', 'app_user'],
    async prepare(world, secrets) {
      const { organizationId } = await pendingInvitation(world, secrets.invitationToken);
      return {
        organizationId,
        run: () => new AcceptInvitation(world.org).execute({ token: secrets.invitationToken, password: secrets.password, origin: TEST_ORIGIN }),
      };
    },
  },
  {
    name: 'an invitee signs in through the identity provider',
    actions: ['member.joined'],
    tables: ['invitation', 'app_user'],
    async prepare(world, secrets) {
      const { organizationId, email } = await pendingInvitation(world, secrets.invitationToken);
      const pending = new IdpPendingInvitations(world.org);
      return {
        organizationId,
        run: () => pending.acceptFor(email, { firstName: 'Grace', lastName: 'Hopper' }, world.org.tokenHasher.hash(secrets.invitationToken), TEST_ORIGIN),
      };
    },
  },
  {
    name: "an admin changes a member's role",
    actions: ['member.role_changed'],
    tables: ['app_user'],
    prepare: (world, secrets) => onMember(world, secrets, (admin, userId) => new ChangeMemberRole(world.org).execute(admin, { userId, role: 'org_admin' })),
  },
  {
    name: 'an admin removes a member',
    actions: ['member.removed'],
    tables: ['app_user', 'session'],
    prepare: (world, secrets) => onMember(world, secrets, (admin, userId) => new RemoveMember(world.org).execute(admin, { userId })),
  },
  {
    name: 'an admin suspends a member',
    actions: ['member.suspended'],
    tables: ['app_user', 'session'],
    prepare: (world, secrets) => onMember(world, secrets, (admin, userId) => new SuspendMember(world.org).execute(admin, { userId })),
  },
  {
    name: 'an admin reactivates a suspended member',
    actions: ['member.activated'],
    tables: ['app_user'],
    prepare: (world, secrets) =>
      onMember(
        world,
        secrets,
        (admin, userId) => new ActivateMember(world.org).execute(admin, { userId }),
        (admin, userId) => new SuspendMember(world.org).execute(admin, { userId }),
      ),
  },
  {
    name: "an admin changes the organization's settings",
    actions: ['organization.settings_changed'],
    tables: ['organization'],
    async prepare(world, secrets) {
      const { organizationId, users } = await world.newOrganization(['org_admin'], secrets.password);
      return { organizationId, run: () => new UpdateOrganizationSettings(world.org).execute(callerOf(users[0]!), { requireMfa: true }) };
    },
  },
  {
    name: 'a sys_admin suspends an organization',
    actions: ['organization.suspended'],
    tables: ['organization'],
    async prepare(world, secrets) {
      const { users } = await world.newOrganization(['sys_admin'], secrets.password);
      const { organizationId } = await world.newOrganization(['org_admin'], secrets.password);
      return { organizationId, run: () => new SuspendOrganization(world.org).execute(callerOf(users[0]!), { organizationId }) };
    },
  },
  {
    name: 'a sys_admin reactivates an organization',
    actions: ['organization.activated'],
    tables: ['organization'],
    async prepare(world, secrets) {
      const { users } = await world.newOrganization(['sys_admin'], secrets.password);
      const { organizationId } = await world.newOrganization(['org_admin'], secrets.password);
      await new SuspendOrganization(world.org).execute(callerOf(users[0]!), { organizationId });
      return { organizationId, run: () => new ActivateOrganization(world.org).execute(callerOf(users[0]!), { organizationId }) };
    },
  },
];

export const BILLING_FLOWS: AuditedFlow[] = [
  {
    name: 'the provider reports a new live subscription',
    actions: ['subscription.started'],
    tables: ['subscription', 'billing_subscription', 'billing_event'],
    async prepare(world) {
      const { organizationId } = await billedOrganization(world);
      return { organizationId, run: () => webhookOf(world)(subscriptionEvent(organizationId)) };
    },
  },
  {
    name: 'the provider reports a completed subscription checkout',
    actions: ['subscription.started'],
    tables: ['subscription', 'billing_event'],
    async prepare(world) {
      const { organizationId } = await billedOrganization(world);
      const event: BillingEvent = {
        id: `evt_${organizationId}_checkout`,
        kind: 'checkout-completed',
        occurredAt: T0,
        organizationId,
        customerId: `cus_${organizationId}`,
        subscriptionId: `sub_${organizationId}`,
        paid: true,
      };
      return { organizationId, run: () => webhookOf(world)(event) };
    },
  },
  {
    name: 'the provider reports a plan change',
    actions: ['subscription.changed'],
    tables: ['subscription', 'billing_subscription', 'billing_event'],
    async prepare(world) {
      const { organizationId } = await billedOrganization(world, 'active');
      const event = subscriptionEvent(organizationId, { occurredAt: new Date(T0.getTime() + 1000), priceId: 'price_premium', productId: 'prod_premium' });
      return { organizationId, run: () => webhookOf(world)(event) };
    },
  },
  {
    name: 'the provider reports the subscription ended, which turns overage off',
    actions: ['subscription.ended', 'organization.settings_changed'],
    tables: ['subscription', 'billing_subscription', 'billing_event', 'organization'],
    async prepare(world) {
      const { organizationId, admin } = await billedOrganization(world, 'active');
      await new UpdateOrganizationSettings(world.org).execute(callerOf(admin), { overageEnabled: true });
      const event = subscriptionEvent(organizationId, { occurredAt: new Date(T0.getTime() + 1000), status: 'canceled' });
      return { organizationId, run: () => webhookOf(world)(event) };
    },
  },
  {
    name: 'the provider reports a paid credit pack',
    actions: ['credit_pack.bought'],
    tables: ['ai_credit_transaction', 'ai_credit_account', 'billing_event'],
    async prepare(world) {
      const { organizationId } = await billedOrganization(world);
      const event: BillingEvent = {
        id: `evt_${organizationId}_pack`,
        kind: 'payment-completed',
        occurredAt: T0,
        organizationId,
        customerId: `cus_${organizationId}`,
        checkoutSessionId: `cs_${organizationId}`,
        packId: DEFAULT_CREDIT_PACKS[0]!.id,
        tokens: DEFAULT_CREDIT_PACKS[0]!.tokens,
        paid: true,
      };
      return { organizationId, run: () => webhookOf(world)(event) };
    },
  },
  {
    name: 'an admin comes back from paying a credit pack',
    actions: ['credit_pack.bought'],
    tables: ['ai_credit_transaction', 'ai_credit_account'],
    async prepare(world) {
      const { organizationId, admin } = await billedOrganization(world);
      const pack = DEFAULT_CREDIT_PACKS[0]!;
      const { url } = await world.provider.createPaymentCheckout({
        organizationId,
        customerId: `cus_${organizationId}`,
        item: { name: pack.name, amountCents: pack.amountCents, currency: pack.currency },
        packId: pack.id,
        tokens: pack.tokens,
        successUrl: 'https://app.example.com/billing',
        cancelUrl: 'https://app.example.com/billing',
        idempotencyKey: `pack-${organizationId}`,
      });
      const sessionId = world.provider.sessionIdFrom(url);
      world.provider.completeSession(sessionId);
      const verify = new VerifyCreditPackCheckout({ ...world.billing, provider: world.provider });
      return { organizationId, run: () => verify.execute(callerOf(admin), { sessionId }) };
    },
  },
];

/** Every audited flow this table knows. */
export const AUDITED_FLOWS: AuditedFlow[] = [...ORGANIZATION_FLOWS, ...BILLING_FLOWS];
