import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUserRepository } from '../../adapters/in-memory/in-memory-user-repository';
import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemorySessionStore } from '../../adapters/in-memory/in-memory-session-store';
import { InMemoryOneTimeTokenStore } from '../../adapters/in-memory/in-memory-one-time-token-store';
import { InMemoryEmailOutbox } from '../../adapters/in-memory/in-memory-email-outbox';
import { NodeTokenGenerator } from '../../adapters/crypto/node-token-generator';
import { Sha256TokenHasher } from '../../adapters/crypto/sha256-token-hasher';
import type { AccountsDeps, AccountsPorts, AccountsSettings } from '../../core/accounts/accounts-deps';
import type { PasswordHasher } from '../../core/accounts/crypto.port';
import type { RoleName } from '../../core/access/role';
import type { User } from '../../core/accounts/user';
import { SessionIssuer, type SignIn } from '../../core/accounts/session-issuer';
import { Login, type LoginInput } from '../../core/accounts/login.use-case';
import { FakeClock } from '../support/fake-clock';
import { BoundedMemoryRateLimiter } from '../../adapters/rate-limit/bounded-memory-rate-limiter';
import { InMemoryMfaRepository } from '../../adapters/in-memory/in-memory-mfa-repository';
import { InMemoryMfaChallengeStore } from '../../adapters/in-memory/in-memory-mfa-challenge-store';
import { OtpauthTotpVerifier } from '../../adapters/crypto/otpauth-totp-verifier';
import { AesGcmAtRestEncryption } from '../../adapters/crypto/aes-gcm-at-rest-encryption';
import { NodeRecoveryCodeGenerator } from '../../adapters/crypto/node-recovery-code-generator';
import { LoginThrottle } from '../../core/accounts/login-throttle';
import type { MfaDeps } from '../../core/mfa/mfa-deps';
import { SessionActivity } from '../../core/accounts/session-activity';
import { recordingLogger } from '../support/recording-logger';
import { MfaSignInCompletion } from '../../core/mfa/sign-in-completion';
import { SecondFactorThrottle } from '../../core/mfa/second-factor-throttle';
import { randomBytes } from 'node:crypto';
import { InMemoryAuditLog } from '../../adapters/in-memory/in-memory-audit-log';
import { FailedSignIns } from '../../core/accounts/failed-sign-ins';
import type { RequestOrigin } from '../../core/access/caller';

/** The origin the harnesses' callers come from, so tests can find it on recorded events. */
export const TEST_ORIGIN: RequestOrigin = Object.freeze({ ip: '203.0.113.7', userAgent: 'vitest-harness' });

/**
 * A fast, deterministic PasswordHasher for use-case tests (bcrypt itself is tested in its own
 * suite). It still distinguishes passwords, and `verify(p, null)` is false, like the real one.
 */
export class PlainPasswordHasher implements PasswordHasher {
  /** Stands for bcrypt's cost: hashes are `plain:<password>` at cost 1, `plain<cost>:<password>` above. */
  cost = 1;
  async hash(password: string): Promise<string> {
    return `plain${this.cost === 1 ? '' : this.cost}:${password}`;
  }
  async verify(password: string, hash: string | null): Promise<boolean> {
    const match = hash === null ? null : /^plain\d*:(.*)$/s.exec(hash);
    return match !== null && match[1] === password;
  }
  needsRehash(hash: string): boolean {
    const match = /^plain(\d*):/.exec(hash);
    return match !== null && Number(match[1] || '1') < this.cost;
  }
}

export interface AccountsHarness {
  ports: AccountsPorts;
  /** The ports plus settings, session issuer, throttle and sign-in completion: what every accounts use case is built from. */
  deps: AccountsDeps;
  /** The accounts ports plus the MFA ones over the same store, and the MFA settings: what every MFA use case is built from. */
  mfaPorts: MfaDeps;
  totp: OtpauthTotpVerifier;
  rateLimiter: BoundedMemoryRateLimiter;
  throttle: LoginThrottle;
  signInCompletion: MfaSignInCompletion;
  settings: AccountsSettings;
  clock: FakeClock;
  store: InMemoryStore;
  outbox: InMemoryEmailOutbox;
  /** The audit log on the same store (`ports.audit`): `recorded()` reads what was written, `failNextRecord()` breaks the next insert. */
  auditLog: InMemoryAuditLog;
  /** Failed sign-ins of known accounts are written off the request's path: `flush()` waits for them. */
  failedSignIns: FailedSignIns;
  issuer: SessionIssuer;
  /** Token from the newest queued email to `to` whose link path is `path` (e.g. `/verify-email`). */
  tokenFromEmail(to: string, path: string): Promise<string>;
  aUser(options?: { email?: string; password?: string; role?: RoleName; verified?: boolean; organizationId?: number }): Promise<User>;
}

export function accountsHarness(overrides: Partial<AccountsSettings> = {}, passwordHasher: PasswordHasher = new PlainPasswordHasher()): AccountsHarness {
  const clock = new FakeClock();
  const store = new InMemoryStore({ clock });
  const outbox = new InMemoryEmailOutbox(store);
  const auditLog = new InMemoryAuditLog(store);
  const ports: AccountsPorts = {
    users: new InMemoryUserRepository(store),
    organizations: new InMemoryOrganizationRepository(store),
    sessions: new InMemorySessionStore(store),
    tokens: new InMemoryOneTimeTokenStore(store),
    passwordHasher,
    tokenGenerator: new NodeTokenGenerator(),
    tokenHasher: new Sha256TokenHasher(),
    clock,
    outbox,
    unitOfWork: store.unitOfWork,
    rateLimiter: new BoundedMemoryRateLimiter(clock),
    audit: auditLog,
  };
  const settings: AccountsSettings = {
    mode: 'b2c',
    sessionMaxAgeSeconds: 86_400,
    appName: 'tenantkit',
    baseWebUrl: 'https://app.example.com',
    ...overrides,
  };
  const issuer = new SessionIssuer(ports, settings.sessionMaxAgeSeconds);
  const throttle = new LoginThrottle(ports);
  const failedSignIns = new FailedSignIns({ users: ports.users, audit: auditLog, logger: recordingLogger() });
  const totp = new OtpauthTotpVerifier();
  const mfaDeps: MfaDeps = {
    ...ports,
    mfa: new InMemoryMfaRepository(store),
    challenges: new InMemoryMfaChallengeStore(store),
    totp,
    atRestEncryption: new AesGcmAtRestEncryption(randomBytes(32)),
    recoveryCodes: new NodeRecoveryCodeGenerator(),
    settings: { issuer: settings.appName },
    sessionIssuer: issuer,
    loginThrottle: throttle,
    secondFactorThrottle: new SecondFactorThrottle(ports),
    failedSignIns,
  };
  const signInCompletion = new MfaSignInCompletion(mfaDeps);
  const deps: AccountsDeps = {
    ...ports,
    settings,
    sessionIssuer: issuer,
    sessionActivity: new SessionActivity({ sessions: ports.sessions, clock, logger: recordingLogger() }),
    loginThrottle: throttle,
    signInCompletion,
    failedSignIns,
  };
  let counter = 0;
  return {
    ports,
    deps,
    mfaPorts: mfaDeps,
    totp,
    rateLimiter: ports.rateLimiter as BoundedMemoryRateLimiter,
    throttle,
    signInCompletion,
    settings,
    clock,
    store,
    outbox,
    auditLog,
    failedSignIns,
    issuer,
    async tokenFromEmail(to, path) {
      const emails = (await outbox.pending()).filter((m) => m.to === to);
      const text = emails.at(-1)?.text ?? '';
      const match = new RegExp(`${path}\\?token=([A-Za-z0-9_%-]+)`).exec(text);
      if (!match) throw new Error(`no ${path} email to ${to}`);
      return decodeURIComponent(match[1]!);
    },
    async aUser(options = {}) {
      counter += 1;
      const organizationId = options.organizationId ?? (await ports.organizations.create({ name: `Org ${counter}` })).id;
      return ports.users.create({
        organizationId,
        email: options.email ?? `user${counter}@example.com`,
        passwordHash: await ports.passwordHasher.hash(options.password ?? 'password-123'),
        firstName: null,
        lastName: null,
        role: options.role ?? 'member',
        emailVerified: options.verified ?? true,
      });
    },
  };
}

/** A password sign-in of `user` as they are now: what SessionIssuer.issue takes. */
export function signInOf(user: User, method: SignIn['method'] = 'password'): SignIn {
  return { userId: user.id, organizationId: user.organizationId, credentialsVersion: user.credentialsVersion, method };
}

/**
 * Login for tests of users without a second factor: the outcome must be a session, returned
 * flat (`token`, `sessionId`, `expiresAt`, `userId`).
 */
export function sessionLogin(h: AccountsHarness) {
  const login = new Login(h.deps);
  return {
    login,
    async execute(input: LoginInput) {
      const outcome = await login.execute(input);
      if (outcome.kind !== 'session') throw new Error(`expected a session, got ${outcome.kind}`);
      return { ...outcome.session, userId: outcome.userId };
    },
  };
}
