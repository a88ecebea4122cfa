import type { ServiceIdentifier } from 'inversify';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import type { IdpBindingCookie } from '../http/idp-binding-cookie';
import type { AfterResponse } from '../http/after-response';
import type { AnyRoute } from '../http/route';
import type { AccountUseCases } from '../http/routes/accounts.routes';
import type { EmailLinkUseCases } from '../http/routes/email-link.routes';
import type { BillingUseCases } from '../http/routes/billing.routes';
import type { NoteUseCases } from '../http/routes/notes.routes';
import type { PlanUseCases } from '../http/routes/plans.routes';
import type { IdpUseCases } from '../http/routes/idp.routes';
import type { OrganizationUseCases } from '../http/routes/organizations.routes';
import type { ProjectUseCases } from '../http/routes/projects.routes';
import type { HealthCheck } from '../http/routes/system.routes';
import type { MfaChallengeCookie, SessionCookie } from '../http/session-cookie';
import type { MfaUseCases } from '../http/routes/mfa.routes';
import type { SessionUseCases } from '../http/routes/sessions.routes';
import type { SessionActivity } from '../../core/accounts/session-activity';
import type { LoginThrottle } from '../../core/accounts/login-throttle';
import type { FailedSignIns } from '../../core/accounts/failed-sign-ins';
import type { AtRestEncryption } from '../../core/shared/at-rest-encryption.port';
import type { TotpVerifier } from '../../core/mfa/totp-verifier.port';
import type { MfaRepository } from '../../core/mfa/mfa-repository.port';
import type { MfaChallengeStore } from '../../core/mfa/mfa-challenge-store.port';
import type { SignInCompletion } from '../../core/accounts/sign-in-completion.port';
import type { JobUseCases } from '../jobs/jobs';
import type { PasskeyUseCases } from '../http/routes/passkeys.routes';
import type { ApiKeyUseCases } from '../http/routes/api-keys.routes';
import type { ApiKeyRepository } from '../../core/api-keys/api-key-repository.port';
import type { AuthenticateApiKey } from '../../core/api-keys/authenticate-api-key.use-case';
import type { ApiKeyActivity } from '../../core/api-keys/api-key-activity';
import type { PasskeyRepository } from '../../core/passkeys/passkey-repository.port';
import type { PasskeyChallengeStore } from '../../core/passkeys/passkey-challenge-store.port';
import type { RelyingParty } from '../../core/passkeys/relying-party.port';
import type { Database } from '../../adapters/postgres/database';
import type { AccountsSettings } from '../../core/accounts/accounts-deps';
import type { AuthenticateSession } from '../../core/accounts/authenticate-session.use-case';
import type { Caller, UserCaller } from '../../core/access/caller';
import type { Entitlements } from '../../core/access/entitlements.port';
import type { LimitFeatureKey } from '../../core/plans/feature-catalogue';
import type { PasswordHasher, TokenGenerator, TokenHasher } from '../../core/accounts/crypto.port';
import type { IdentityLinkRepository } from '../../core/accounts/identity-link-repository.port';
import type { IdentityProvider } from '../../core/accounts/identity-provider.port';
import type { IdpLoginFlowStore } from '../../core/accounts/idp-login-flow-store.port';
import type { OneTimeTokenStore } from '../../core/accounts/one-time-token-store.port';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { SessionIssuer } from '../../core/accounts/session-issuer';
import type { SessionStore } from '../../core/accounts/session-store.port';
import type { StateSigner } from '../../core/accounts/state-signer.port';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { BillingProvider } from '../../core/billing/billing-provider.port';
import type { CreditPackFulfilment } from '../../core/billing/credit-pack-fulfilment.port';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import type { EmailOutbox } from '../../core/email/email-outbox.port';
import type { Mailer } from '../../core/email/mailer.port';
import type { OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import type { JobRunLedger } from '../../core/jobs/job-run-ledger.port';
import type { CreateSystemAdmin } from '../../core/organizations/create-system-admin.use-case';
import type { InvitationRepository } from '../../core/organizations/invitation-repository.port';
import type { NoteRepository } from '../../core/notes/note-repository.port';
import type { MeteredUsageReaders } from '../../core/plans/plans-deps';
import type { PlanRepository } from '../../core/plans/plan-repository.port';
import type { ProjectRepository } from '../../core/projects/project-repository.port';
import type { Clock } from '../../core/shared/clock.port';
import type { RateLimiter } from '../../core/shared/rate-limiter.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import type { AiCapacity } from '../../core/ai/ai-capacity.port';
import type { AiDeps } from '../../core/ai/ai-deps';
import type { CreditLedger } from '../../core/billing/credit-ledger.port';
import type { OverageReportStore } from '../../core/ai/overage-report.port';
import type { SystemSettingsRepository } from '../../core/ai/system-settings.port';
import type { ReleaseExpiredReservations } from '../../core/ai/release-expired-reservations.use-case';
import type { CopilotUseCases } from '../http/routes/copilot.routes';
import type { UsageUseCases } from '../http/routes/usage.routes';
import type { SystemSettingsUseCases } from '../http/routes/settings.routes';
import type { CreditPackUseCases } from '../http/routes/credit-packs.routes';
import type { AuditLog } from '../../core/audit/audit-log.port';
import type { AuditEventRepository } from '../../core/audit/audit-event-repository.port';
import type { AuditUseCases } from '../http/routes/audit.routes';
import type { PruneAuditEvents } from '../../core/audit/prune-audit-events.use-case';

/**
 * A service identifier that carries the type it resolves to: `bind(TOKENS.Clock)` accepts only a
 * Clock and `ctx.get(TOKENS.Clock)` returns one, with no type argument to get wrong. Declaring
 * the result as inversify's `ServiceIdentifier<T>` (rather than letting it narrow to `symbol`)
 * is what lets inversify infer `T`.
 */
const token = <T>(name: string): ServiceIdentifier<T> => Symbol(name);

/**
 * Service identifiers: one per port or setting, named after its interface, and one use-case set
 * per bounded context. Only app/container/ and the composition roots (server, worker, CLI)
 * resolve them.
 */
export const TOKENS = {
  // infrastructure: shared by every context
  Config: token<AppConfig>('AppConfig'),
  Logger: token<Logger>('Logger'),
  Clock: token<Clock>('Clock'),
  Database: token<Database>('Database'),
  UnitOfWork: token<UnitOfWork>('UnitOfWork'),
  Mailer: token<Mailer>('Mailer'),
  RateLimiter: token<RateLimiter>('RateLimiter'),
  /** Multi-bound: every check `/health` runs. */
  HealthCheck: token<HealthCheck>('HealthCheck'),
  /** Multi-bound: each context binds its routes once. */
  Routes: token<AnyRoute[]>('Routes'),
  AfterResponse: token<AfterResponse>('AfterResponse'),
  /** The authentication the router runs for every non-public route: a bearer API key or the session cookie. */
  Authenticate: token<(ctx: Context) => Promise<Caller>>('Authenticate'),
  /** The session cookie's half of Authenticate. */
  AuthenticateSession: token<(ctx: Context) => Promise<UserCaller>>('AuthenticateSession'),
  // audit: every context that records changes resolves AuditLog
  AuditLog: token<AuditLog>('AuditLog'),
  AuditEventRepository: token<AuditEventRepository>('AuditEventRepository'),
  AuditUseCases: token<AuditUseCases & { pruneAuditEvents: PruneAuditEvents }>('AuditUseCases'),
  // accounts
  AccountsSettings: token<AccountsSettings>('AccountsSettings'),
  UserRepository: token<UserRepository>('UserRepository'),
  OrganizationRepository: token<OrganizationRepository>('OrganizationRepository'),
  SessionStore: token<SessionStore>('SessionStore'),
  OneTimeTokenStore: token<OneTimeTokenStore>('OneTimeTokenStore'),
  PasswordHasher: token<PasswordHasher>('PasswordHasher'),
  TokenGenerator: token<TokenGenerator>('TokenGenerator'),
  TokenHasher: token<TokenHasher>('TokenHasher'),
  EmailOutbox: token<EmailOutbox>('EmailOutbox'),
  SessionIssuer: token<SessionIssuer>('SessionIssuer'),
  SessionCookie: token<SessionCookie>('SessionCookie'),
  SessionActivity: token<SessionActivity>('SessionActivity'),
  LoginThrottle: token<LoginThrottle>('LoginThrottle'),
  FailedSignIns: token<FailedSignIns>('FailedSignIns'),
  AccountUseCases: token<AccountUseCases & SessionUseCases & EmailLinkUseCases & { authenticateSession: AuthenticateSession }>('AccountUseCases'),
  // second factor
  AtRestEncryption: token<AtRestEncryption>('AtRestEncryption'),
  TotpVerifier: token<TotpVerifier>('TotpVerifier'),
  MfaRepository: token<MfaRepository>('MfaRepository'),
  MfaChallengeStore: token<MfaChallengeStore>('MfaChallengeStore'),
  SignInCompletion: token<SignInCompletion>('SignInCompletion'),
  MfaChallengeCookie: token<MfaChallengeCookie>('MfaChallengeCookie'),
  MfaUseCases: token<MfaUseCases>('MfaUseCases'),
  // API keys
  ApiKeyRepository: token<ApiKeyRepository>('ApiKeyRepository'),
  ApiKeyActivity: token<ApiKeyActivity>('ApiKeyActivity'),
  ApiKeyUseCases: token<ApiKeyUseCases & { authenticateApiKey: AuthenticateApiKey }>('ApiKeyUseCases'),
  // passkeys
  PasskeyRepository: token<PasskeyRepository>('PasskeyRepository'),
  PasskeyChallengeStore: token<PasskeyChallengeStore>('PasskeyChallengeStore'),
  RelyingParty: token<RelyingParty>('RelyingParty'),
  PasskeyUseCases: token<PasskeyUseCases>('PasskeyUseCases'),
  // identity provider
  IdentityProvider: token<IdentityProvider>('IdentityProvider'),
  StateSigner: token<StateSigner>('StateSigner'),
  IdentityLinkRepository: token<IdentityLinkRepository>('IdentityLinkRepository'),
  IdpLoginFlowStore: token<IdpLoginFlowStore>('IdpLoginFlowStore'),
  IdpBindingCookie: token<IdpBindingCookie>('IdpBindingCookie'),
  IdpUseCases: token<IdpUseCases>('IdpUseCases'),
  // organizations, members, invitations (and the CLI's sys_admin bootstrap)
  InvitationRepository: token<InvitationRepository>('InvitationRepository'),
  OrganizationUseCases: token<OrganizationUseCases & { createSystemAdmin: CreateSystemAdmin }>('OrganizationUseCases'),
  // projects
  ProjectRepository: token<ProjectRepository>('ProjectRepository'),
  ProjectUseCases: token<ProjectUseCases>('ProjectUseCases'),
  // billing
  BillingProvider: token<BillingProvider>('BillingProvider'),
  SubscriptionRepository: token<SubscriptionRepository>('SubscriptionRepository'),
  /** Bound by the context that sells credit packs; unbound, a paid pack is refused with 503 so Stripe redelivers it. */
  CreditPackFulfilment: token<CreditPackFulfilment>('CreditPackFulfilment'),
  BillingUseCases: token<BillingUseCases & CreditPackUseCases>('BillingUseCases'),
  // plans and quotas
  PlanRepository: token<PlanRepository>('PlanRepository'),
  /** Use within a period per `metered` feature. */
  MeteredUsageReaders: token<MeteredUsageReaders>('MeteredUsageReaders'),
  /** Applies a plan's `limit` features to creates; used by every context whose records a plan limits. */
  Entitlements: token<Entitlements<LimitFeatureKey>>('Entitlements'),
  PlanUseCases: token<PlanUseCases>('PlanUseCases'),
  // notes
  NoteRepository: token<NoteRepository>('NoteRepository'),
  NoteUseCases: token<NoteUseCases>('NoteUseCases'),
  // AI copilot, usage, credits and system settings
  AiCapacity: token<AiCapacity>('AiCapacity'),
  CreditLedger: token<CreditLedger>('CreditLedger'),
  OverageReportStore: token<OverageReportStore>('OverageReportStore'),
  SystemSettingsRepository: token<SystemSettingsRepository>('SystemSettingsRepository'),
  AiDeps: token<AiDeps>('AiDeps'),
  AiUseCases: token<CopilotUseCases & UsageUseCases & SystemSettingsUseCases & { releaseExpiredReservations: ReleaseExpiredReservations }>('AiUseCases'),
  // jobs and email delivery
  OutboxDeliveryStore: token<OutboxDeliveryStore>('OutboxDeliveryStore'),
  JobRunLedger: token<JobRunLedger>('JobRunLedger'),
  JobUseCases: token<JobUseCases>('JobUseCases'),
} as const;
