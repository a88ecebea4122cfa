import { describe, expect, it } from 'vitest';
import type { AccountsDeps } from '../../core/accounts/accounts-deps';
import type { SignInOutcome } from '../../core/accounts/sign-in-completion.port';
import { AuthenticateSession } from '../../core/accounts/authenticate-session.use-case';
import { ForgotPassword } from '../../core/accounts/forgot-password.use-case';
import { Login } from '../../core/accounts/login.use-case';
import { ResetPassword } from '../../core/accounts/reset-password.use-case';
import { UpdatePassword } from '../../core/accounts/update-password.use-case';
import type { User } from '../../core/accounts/user';
import { RemoveMember } from '../../core/organizations/remove-member.use-case';
import type { GatedPasswordHasher } from '../builders/gated-hasher';

export interface CredentialRacesHarness {
  /** Accounts deps whose `passwordHasher` is `hasher`. */
  deps: AccountsDeps;
  hasher: GatedPasswordHasher;
  /** The newest reset-password token emailed to `to`. */
  resetToken(to: string): Promise<string>;
  teardown(): Promise<void>;
}

let sequence = 0;

/** The session of a login of a user without a second factor. */
function sessionOf(outcome: SignInOutcome) {
  if (outcome.kind !== 'session') throw new Error('expected a session, got an MFA challenge');
  return outcome.session;
}

/**
 * Logins and password changes that overlap a password reset, a password update or a member's
 * removal. Each test holds a password comparison after it has read the old hash, makes the
 * competing change, then lets it finish: what it does then is what a real interleaving does.
 */
export function describeCredentialRaces(name: string, setup: () => Promise<CredentialRacesHarness>): void {
  describe(`credential races: ${name}`, () => {
    const withUser = async () => {
      const h = await setup();
      sequence += 1;
      const organization = await h.deps.organizations.create({ name: 'Race' });
      const newUser = async (email: string, role: User['role']) =>
        h.deps.users.create({
          organizationId: organization.id,
          email,
          passwordHash: await h.hasher.hash('old password'),
          firstName: null,
          lastName: null,
          role,
          emailVerified: true,
        });
      const admin = await newUser(`admin-${sequence}-${process.pid}@example.test`, 'org_admin');
      const user = await newUser(`user-${sequence}-${process.pid}@example.test`, 'member');
      const deps = h.deps;
      const login = new Login(deps);
      const authenticate = new AuthenticateSession(deps);
      const reset = async (to: string) => {
        await new ForgotPassword(deps).execute({ email: user.email });
        await new ResetPassword(deps).execute({ token: await h.resetToken(user.email), newPassword: to });
      };
      return { h, deps, admin, user, login, authenticate, reset };
    };

    it('a login that checked the old password while a reset landed gets no session (401)', async () => {
      const { h, user, login, reset } = await withUser();
      try {
        const held = h.hasher.holdNextVerify();
        const inFlight = login.execute({ email: user.email, password: 'old password' });
        await held.reached;
        await reset('new password');
        held.release();

        await expect(inFlight).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
        await expect(login.execute({ email: user.email, password: 'new password' })).resolves.toMatchObject({ kind: 'session', userId: user.id });
      } finally {
        await h.teardown();
      }
    });

    it('a session made under the old password dies with the change, revoked or not', async () => {
      const { h, user, login, authenticate } = await withUser();
      try {
        const { token } = sessionOf(await login.execute({ email: user.email, password: 'old password' }));
        // No revokeAllForUser: only the version check stands between this session and the caller.
        await h.deps.users.setPasswordHash(user.id, await h.hasher.hash('new password'));

        await expect(authenticate.execute(token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      } finally {
        await h.teardown();
      }
    });

    it('a password update whose current-password check raced a reset loses: the reset password stands', async () => {
      const { h, user, login, authenticate, reset } = await withUser();
      try {
        const thief = await authenticate.execute(sessionOf(await login.execute({ email: user.email, password: 'old password' })).token);
        const held = h.hasher.holdNextVerify();
        const inFlight = new UpdatePassword(h.deps).execute(thief, { currentPassword: 'old password', newPassword: 'thief password' });
        await held.reached;
        await reset('owner password');
        held.release();

        await expect(inFlight).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
        await expect(login.execute({ email: user.email, password: 'thief password' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
        await expect(login.execute({ email: user.email, password: 'owner password' })).resolves.toMatchObject({ kind: 'session', userId: user.id });
      } finally {
        await h.teardown();
      }
    });

    it('a password update keeps its own session, ends the others and voids reset links asked for before it', async () => {
      const { h, deps, user, login, authenticate } = await withUser();
      try {
        const mine = sessionOf(await login.execute({ email: user.email, password: 'old password' }));
        const other = sessionOf(await login.execute({ email: user.email, password: 'old password' }));
        await new ForgotPassword(deps).execute({ email: user.email });
        const token = await h.resetToken(user.email);

        await new UpdatePassword(deps).execute(await authenticate.execute(mine.token), { currentPassword: 'old password', newPassword: 'new password' });

        await expect(authenticate.execute(mine.token)).resolves.toMatchObject({ userId: user.id });
        await expect(authenticate.execute(other.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
        await expect(new ResetPassword(deps).execute({ token, newPassword: 'attacker password' })).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
      } finally {
        await h.teardown();
      }
    });

    it("a login racing the member's removal answers 401, not a 500", async () => {
      const { h, admin, user, login, authenticate } = await withUser();
      try {
        const adminCaller = await authenticate.execute(sessionOf(await login.execute({ email: admin.email, password: 'old password' })).token);
        const held = h.hasher.holdNextVerify();
        const inFlight = login.execute({ email: user.email, password: 'old password' });
        await held.reached;
        await new RemoveMember(h.deps).execute(adminCaller, { userId: user.id });
        held.release();

        await expect(inFlight).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
      } finally {
        await h.teardown();
      }
    });
  });
}
