import { recordingLogger } from '../support/recording-logger';
import { InMemoryInvitationRepository } from '../../adapters/in-memory/in-memory-invitation-repository';
import { InMemoryApiKeyRepository } from '../../adapters/in-memory/in-memory-api-key-repository';
import { InMemorySubscriptionRepository } from '../../adapters/in-memory/in-memory-subscription-repository';
import { BoundedMemoryRateLimiter } from '../../adapters/rate-limit/bounded-memory-rate-limiter';
import type { RateLimiter } from '../../core/shared/rate-limiter.port';
import { AuthenticateSession } from '../../core/accounts/authenticate-session.use-case';
import type { ApiKeyCaller, UserCaller } from '../../core/access/caller';
import type { ApiKeyRole } from '../../core/api-keys/api-key';
import { ApiKeyActivity } from '../../core/api-keys/api-key-activity';
import type { ApiKeysDeps } from '../../core/api-keys/api-keys-deps';
import type { RoleName } from '../../core/access/role';
import type { User } from '../../core/accounts/user';
import type { OrganizationsDeps, OrganizationsPorts } from '../../core/organizations/organizations-deps';
import { accountsHarness, signInOf, TEST_ORIGIN, type AccountsHarness } from './accounts';

export interface OrganizationsHarness extends AccountsHarness {
  orgPorts: OrganizationsPorts;
  /** The ports plus settings: what every organizations use case is built from. */
  orgDeps: OrganizationsDeps;
  invitations: InMemoryInvitationRepository;
  /** The organizations' subscriptions, on the same store (what `orgDeps.meteredBilling` reads). */
  subscriptions: InMemorySubscriptionRepository;
  /** The organizations' API keys, on the same store (what `orgPorts.apiKeys` reads). */
  apiKeys: InMemoryApiKeyRepository;
  /** A new key of `creator`'s organization with `role`, and the ApiKeyCaller a request with it yields. */
  keyCaller(creator: User, role: ApiKeyRole, expiresAt?: Date | null): Promise<ApiKeyCaller>;
  /** In-memory counters, fresh per harness. */
  limiter: RateLimiter;
  /** A new organization with one verified user per role given, in that order. */
  anOrganization(roles: RoleName[], name?: string): Promise<{ organizationId: number; users: User[] }>;
  /** The user logged in: a real session in the store, and the UserCaller its authentication yields. */
  loginAs(user: User): Promise<UserCaller & { token: string }>;
  /** Resolves a session token the way every request does; rejects UNAUTHORIZED when it is dead. */
  authenticate(token: string): Promise<UserCaller>;
  /** The token of the newest invitation email to `to`. */
  invitationToken(to: string): Promise<string>;
}

/** The accounts harness (in-memory store, fake clock) plus the invitation repository. */
export function organizationsHarness(): OrganizationsHarness {
  const base = accountsHarness();
  const invitations = new InMemoryInvitationRepository(base.store);
  const { tokens: _tokens, ...accounts } = base.ports;
  const apiKeys = new InMemoryApiKeyRepository(base.store);
  const orgPorts: OrganizationsPorts = { ...accounts, invitations, apiKeys };
  const authenticateSession = new AuthenticateSession(base.ports);
  const limiter = new BoundedMemoryRateLimiter(base.clock);
  const subscriptions = new InMemorySubscriptionRepository(base.store);
  let counter = 0;
  return {
    ...base,
    orgPorts,
    invitations,
    apiKeys,
    subscriptions,
    limiter,
    orgDeps: { ...orgPorts, rateLimiter: limiter, settings: base.settings, logger: recordingLogger(), meteredBilling: subscriptions },
    async anOrganization(roles, name) {
      counter += 1;
      const organizationId = (await base.ports.organizations.create({ name: name ?? `Tenant ${counter}` })).id;
      const users: User[] = [];
      for (const role of roles) {
        counter += 1;
        users.push(await base.aUser({ organizationId, role, email: `${role}-${counter}@example.com` }));
      }
      return { organizationId, users };
    },
    async loginAs(user) {
      const current = await base.ports.users.findById(user.id);
      const session = current && (await base.issuer.issue(signInOf(current)));
      if (!session) throw new Error(`user ${user.id} cannot get a session`);
      return { ...(await authenticateSession.execute(session.token)), origin: TEST_ORIGIN, token: session.token };
    },
    async keyCaller(creator, role, expiresAt = null) {
      counter += 1;
      const key = await apiKeys.create({
        organizationId: creator.organizationId,
        name: `key ${counter}`,
        role,
        prefix: 'tk_abcdefg',
        keyHash: base.ports.tokenHasher.hash(`key-${counter}`),
        createdByUserId: creator.id,
        createdAt: base.clock.now(),
        expiresAt,
      });
      return { kind: 'api_key', apiKeyId: key.id, organizationId: key.organizationId, role, mfaSatisfied: true, origin: TEST_ORIGIN };
    },
    authenticate: (token) => authenticateSession.execute(token),
    invitationToken: (to) => base.tokenFromEmail(to, '/invite/accept'),
  };
}

/** The API-key use cases' deps over a harness's in-memory store, recording into its audit log. */
export function apiKeysDeps(h: Pick<OrganizationsHarness, 'apiKeys' | 'ports' | 'clock' | 'auditLog' | 'store'>): ApiKeysDeps {
  return {
    apiKeys: h.apiKeys,
    tokenGenerator: h.ports.tokenGenerator,
    tokenHasher: h.ports.tokenHasher,
    clock: h.clock,
    audit: h.auditLog,
    unitOfWork: h.store.unitOfWork,
    keyActivity: new ApiKeyActivity({ apiKeys: h.apiKeys, logger: recordingLogger() }),
  };
}
