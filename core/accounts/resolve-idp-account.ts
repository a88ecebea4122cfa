import type { AccountsSettings } from './accounts-deps';
import type { VerifiedIdentity } from './identity-provider.port';
import type { IdpLoginPorts } from './accounts-deps';
import { IdpLoginFailure } from './idp-login';
import type { User } from './user';
import type { AuditOrigin } from '../audit/audit-event';
import { NO_ORIGIN } from '../audit/audit-actor';

/** How the identity found its local account; logged, and what the tests assert on. */
export type IdpAccountOutcome = 'returning' | 'linked' | 'claimed' | 'created' | 'invited';

type Ports = Pick<IdpLoginPorts, 'users' | 'organizations' | 'sessions' | 'links' | 'invitations'>;

/**
 * Account resolution; must run inside the caller's transaction, so a refusal (thrown
 * IdpLoginFailure) undoes a half-made account. By `(issuer, subject)` first; else by email, and
 * only when the provider verified it. A local account found by email is taken over: linked when
 * verified, claimed when not; either way its password is dropped and its sessions revoked, since
 * whoever set that password is not proven to be this person (a pre-registered password must stop
 * working the moment the owner arrives). A sys_admin is never taken over by email: a provider
 * account that asserts their address would otherwise hold the whole system. An unknown email
 * accepts the invitation the sign-in started from, if any; otherwise it gets a new account in
 * B2C, or its only pending invitation in B2B.
 */
export async function resolveIdpAccount(
  ports: Ports,
  mode: AccountsSettings['mode'],
  identity: VerifiedIdentity,
  now: Date,
  invitationHash: string | null = null,
  origin: AuditOrigin = NO_ORIGIN,
): Promise<{ userId: number; outcome: IdpAccountOutcome }> {
  const link = await ports.links.findBySubject(identity.issuer, identity.subject);
  if (link) {
    await assertActive(ports, await ports.users.findById(link.userId));
    return { userId: link.userId, outcome: 'returning' };
  }
  if (identity.email === null) throw new IdpLoginFailure('oauth_email_unverified', 'the provider sent no email address');
  if (!identity.emailVerified) throw new IdpLoginFailure('oauth_email_unverified', 'the provider did not assert email_verified');

  const existing = await ports.users.findByEmail(identity.email);
  let userId: number;
  let outcome: IdpAccountOutcome;
  if (existing) {
    await assertActive(ports, existing);
    if (existing.role === 'sys_admin') {
      throw new IdpLoginFailure('oauth_failed', `user ${existing.id} is a sys_admin: never linked to a provider account by email`);
    }
    await takeOver(ports, existing);
    userId = existing.id;
    outcome = existing.emailVerified ? 'linked' : 'claimed';
  } else if (mode === 'b2c' && invitationHash === null) {
    userId = await createOwner(ports, identity, identity.email);
    outcome = 'created';
  } else {
    const accepted = await ports.invitations?.acceptFor(identity.email, profile(identity), invitationHash, origin);
    if (!accepted) throw new IdpLoginFailure('oauth_signup_closed', 'B2B mode and no pending invitation for this email');
    await assertActive(ports, await ports.users.findById(accepted.userId));
    userId = accepted.userId;
    outcome = 'invited';
  }
  await ports.links.create({ userId, issuer: identity.issuer, subject: identity.subject, createdAt: now });
  return { userId, outcome };
}

/** Whoever set the password never proved they are the person the provider just vouched for. */
async function takeOver(ports: Ports, user: User): Promise<void> {
  if (user.passwordHash !== null) await ports.users.setPasswordHash(user.id, null);
  await ports.sessions.revokeAllForUser(user.id);
  await ports.users.markEmailVerified(user.id);
}

async function assertActive(ports: Ports, user: User | null): Promise<void> {
  if (!user) throw new IdpLoginFailure('oauth_failed', 'the linked user no longer exists');
  if (user.status !== 'active') throw new IdpLoginFailure('oauth_failed', `user ${user.id} is suspended`, user);
  const organization = await ports.organizations.findById(user.organizationId);
  if (organization?.status !== 'active') throw new IdpLoginFailure('oauth_failed', `organization ${user.organizationId} is suspended`, user);
}

async function createOwner(ports: Ports, identity: VerifiedIdentity, email: string): Promise<number> {
  const names = profile(identity);
  const displayName = [names.firstName, names.lastName].filter(Boolean).join(' ');
  const organization = await ports.organizations.create({ name: [...`${displayName || email}'s organization`].slice(0, 200).join('') });
  const user = await ports.users.create({
    organizationId: organization.id,
    email,
    passwordHash: null,
    ...names,
    role: 'org_admin',
    emailVerified: true,
  });
  return user.id;
}

/**
 * Names from the provider, held to the rules of names typed into the API: one line (a run of
 * control characters becomes one space, so a name cannot pose as a line of its own in an email
 * or a list), trimmed, at most 100 characters (the columns' size); nothing left is no name.
 * Providers promise none of this.
 */
function profile(identity: VerifiedIdentity): { firstName: string | null; lastName: string | null } {
  return { firstName: oneLineName(identity.givenName), lastName: oneLineName(identity.familyName) };
}

function oneLineName(name: string | null | undefined): string | null {
  const line = [...(name ?? '').replace(/[\u0000-\u001F\u007F]+/g, ' ').trim()].slice(0, 100).join('').trim();
  return line === '' ? null : line;
}
