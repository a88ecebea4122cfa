import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUserRepository } from '../../adapters/in-memory/in-memory-user-repository';
import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemorySessionStore } from '../../adapters/in-memory/in-memory-session-store';
import { InMemoryOneTimeTokenStore } from '../../adapters/in-memory/in-memory-one-time-token-store';
import { InMemoryEmailOutbox } from '../../adapters/in-memory/in-memory-email-outbox';
import { NodeTokenGenerator } from '../../adapters/crypto/node-token-generator';
import { Sha256TokenHasher } from '../../adapters/crypto/sha256-token-hasher';
import type { AccountsDeps, AccountsPorts, AccountsSettings } from '../../core/accounts/accounts-ports';
import type { PasswordHasher } from '../../core/accounts/crypto.port';
import type { RoleName } from '../../core/accounts/role';
import type { User } from '../../core/accounts/user';
import { SessionIssuer } from '../../core/accounts/session-issuer';
import { FakeClock } from '../support/fake-clock';

/**
 * A fast, deterministic PasswordHasher for use-case tests (bcrypt itself is tested in its own
 * suite). It still distinguishes passwords, and `verify(p, null)` is false, like the real one.
 */
export class PlainPasswordHasher implements PasswordHasher {
  async hash(password: string): Promise<string> {
    return `plain:${password}`;
  }
  async verify(password: string, hash: string | null): Promise<boolean> {
    return hash !== null && hash === `plain:${password}`;
  }
}

export interface AccountsHarness {
  ports: AccountsPorts;
  /** The ports plus settings and session issuer: what every accounts use case is built from. */
  deps: AccountsDeps;
  settings: AccountsSettings;
  clock: FakeClock;
  store: InMemoryStore;
  outbox: InMemoryEmailOutbox;
  issuer: SessionIssuer;
  /** Token from the newest queued email to `to` whose link path is `path` (e.g. `/verify-email`). */
  tokenFromEmail(to: string, path: string): Promise<string>;
  aUser(options?: { email?: string; password?: string; role?: RoleName; verified?: boolean; organizationId?: number }): Promise<User>;
}

export function accountsHarness(overrides: Partial<AccountsSettings> = {}): AccountsHarness {
  const clock = new FakeClock();
  const store = new InMemoryStore({ clock });
  const outbox = new InMemoryEmailOutbox(store);
  const ports: AccountsPorts = {
    users: new InMemoryUserRepository(store),
    organizations: new InMemoryOrganizationRepository(store),
    sessions: new InMemorySessionStore(store),
    tokens: new InMemoryOneTimeTokenStore(store),
    passwordHasher: new PlainPasswordHasher(),
    tokenGenerator: new NodeTokenGenerator(),
    tokenHasher: new Sha256TokenHasher(),
    clock,
    outbox,
    unitOfWork: store.unitOfWork,
  };
  const settings: AccountsSettings = {
    mode: 'b2c',
    sessionMaxAgeSeconds: 86_400,
    appName: 'tenantkit',
    baseWebUrl: 'https://app.example.com',
    ...overrides,
  };
  const issuer = new SessionIssuer(ports, settings.sessionMaxAgeSeconds);
  let counter = 0;
  return {
    ports,
    deps: { ...ports, settings, sessionIssuer: issuer },
    settings,
    clock,
    store,
    outbox,
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
