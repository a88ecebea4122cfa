import { describe, expect, it } from 'vitest';
import { idpHarness } from '../../test/builders/idp';
import { anIdentity } from '../../test/fakes/fake-identity-provider';
import { GatedPasswordHasher } from '../../test/builders/gated-hasher';
import { AuthenticateSession } from './authenticate-session.use-case';
import { sessionLogin } from '../../test/builders/accounts';

const ISSUER = 'https://idp.example.com';

describe('identity-provider account resolution', () => {
  it('creates, in B2C, a verified org_admin without a password in a personal organization, linked to the identity', async () => {
    const h = idpHarness();
    const result = await h.signIn();

    expect(result).toMatchObject({ ok: true, outcome: 'created' });
    if (!result.ok || result.kind !== 'session') throw new Error('expected a session');
    const user = await h.ports.users.findById(result.userId);
    expect(user).toMatchObject({ email: 'ada@example.com', passwordHash: null, emailVerified: true, role: 'org_admin', firstName: 'Ada', lastName: 'Lovelace' });
    await expect(h.ports.organizations.findById(user!.organizationId)).resolves.toMatchObject({ name: "Ada Lovelace's organization", status: 'active' });
    await expect(h.links.listByUser(result.userId)).resolves.toEqual([expect.objectContaining({ issuer: ISSUER, subject: 'subject-1' })]);
  });

  it('finds a returning identity by (issuer, subject), whatever its email says now', async () => {
    const h = idpHarness();
    const first = await h.signIn();
    h.provider.identity = anIdentity({ email: 'renamed@example.com', emailVerified: false });
    const again = await h.signIn();

    expect(again).toMatchObject({ ok: true, outcome: 'returning' });
    expect(again.ok && first.ok && again.userId === first.userId).toBe(true);
    expect(h.store.users.size).toBe(1);
  });

  it('links a verified local account, dropping its password and revoking its sessions', async () => {
    const h = idpHarness();
    const local = await h.aUser({ email: 'ada@example.com', password: 'correct horse', verified: true });
    const login = await sessionLogin(h).execute({ email: 'ada@example.com', password: 'correct horse' });

    const result = await h.signIn();

    expect(result).toMatchObject({ ok: true, outcome: 'linked', userId: local.id });
    await expect(new AuthenticateSession(h.ports).execute(login.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(sessionLogin(h).execute({ email: 'ada@example.com', password: 'correct horse' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    await expect(h.ports.users.findById(local.id)).resolves.toMatchObject({ passwordHash: null });
    await expect(h.links.findBySubject(ISSUER, 'subject-1')).resolves.toMatchObject({ userId: local.id });
    if (result.ok && result.kind === 'session') await expect(new AuthenticateSession(h.ports).execute(result.session.token)).resolves.toMatchObject({ userId: local.id });
  });

  it('a password login in flight while the owner links their provider account gets no session', async () => {
    const hasher = new GatedPasswordHasher();
    const h = idpHarness({ passwordHasher: hasher });
    await h.aUser({ email: 'ada@example.com', password: 'pre-registered', verified: true });
    const held = hasher.holdNextVerify();
    const inFlight = sessionLogin(h).execute({ email: 'ada@example.com', password: 'pre-registered' });
    await held.reached;

    await expect(h.signIn()).resolves.toMatchObject({ ok: true, outcome: 'linked' });
    held.release();

    await expect(inFlight).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it('never links a sys_admin by email: a provider account asserting their address gets nothing', async () => {
    const h = idpHarness();
    const root = await h.aUser({ email: 'ada@example.com', password: 'root password', role: 'sys_admin', verified: true });

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_failed' });
    await expect(h.links.listByUser(root.id)).resolves.toEqual([]);
    await expect(h.ports.users.findById(root.id)).resolves.toMatchObject({ passwordHash: 'plain:root password', role: 'sys_admin' });
    expect(h.store.sessions.size).toBe(0);
  });

  it('claims an unverified local account: password removed, sessions revoked, email verified, linked', async () => {
    const h = idpHarness();
    const local = await h.aUser({ email: 'ada@example.com', password: 'squatter-pass', verified: false });
    const squatter = h.ports.tokenGenerator.generate();
    const now = h.clock.now();
    await h.ports.sessions.create({ userId: local.id, tokenHash: h.ports.tokenHasher.hash(squatter), createdAt: now, expiresAt: new Date(now.getTime() + 3_600_000), credentialsVersion: local.credentialsVersion });

    const result = await h.signIn();

    expect(result).toMatchObject({ ok: true, outcome: 'claimed', userId: local.id });
    await expect(h.ports.users.findById(local.id)).resolves.toMatchObject({ passwordHash: null, emailVerified: true });
    await expect(new AuthenticateSession(h.ports).execute(squatter)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(sessionLogin(h).execute({ email: 'ada@example.com', password: 'squatter-pass' })).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    if (result.ok && result.kind === 'session') await expect(new AuthenticateSession(h.ports).execute(result.session.token)).resolves.toMatchObject({ userId: local.id });
  });

  it.each([
    ['not verified by the provider', { emailVerified: false }],
    ['missing', { email: null, emailVerified: false }],
  ])('refuses an email %s as oauth_email_unverified, touching no account', async (_label, identity) => {
    const h = idpHarness();
    const local = await h.aUser({ email: 'ada@example.com', password: 'correct horse', verified: false });
    h.provider.identity = anIdentity(identity);

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_email_unverified' });
    await expect(h.ports.users.findById(local.id)).resolves.toMatchObject({ passwordHash: 'plain:correct horse', emailVerified: false });
    await expect(h.links.listByUser(local.id)).resolves.toEqual([]);
    expect(h.store.users.size).toBe(1);
  });

  it('refuses, in B2B, an unknown email without a pending invitation as oauth_signup_closed, creating nothing', async () => {
    const h = idpHarness({ mode: 'b2b' });
    const organizations = h.store.organizations.size;

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_signup_closed' });
    expect(h.store.users.size).toBe(0);
    expect(h.store.organizations.size).toBe(organizations);
  });

  it('refuses, in B2B, an expired invitation just like none', async () => {
    const h = idpHarness({ mode: 'b2b' });
    await h.invite('ada@example.com', 'member', 1_000);
    h.clock.advance(1_000);

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_signup_closed' });
  });

  it('accepts, in B2B, the pending invitation: invited role in the inviting organization, no password', async () => {
    const h = idpHarness({ mode: 'b2b' });
    const { organization, invitation } = await h.invite('ada@example.com', 'readonly');

    const result = await h.signIn();

    expect(result).toMatchObject({ ok: true, outcome: 'invited' });
    if (!result.ok || result.kind !== 'session') throw new Error('expected a session');
    await expect(h.ports.users.findById(result.userId)).resolves.toMatchObject({ organizationId: organization.id, role: 'readonly', passwordHash: null, emailVerified: true, firstName: 'Ada' });
    await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, h.clock.now())).resolves.toBeNull();
    await expect(h.signIn()).resolves.toMatchObject({ ok: true, outcome: 'returning', userId: result.userId });
  });

  it('refuses, in B2B, everyone unknown when no invitations are wired', async () => {
    const h = idpHarness({ mode: 'b2b', withInvitations: false });

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_signup_closed' });
  });

  it('links, in B2B, an existing verified account without needing an invitation', async () => {
    const h = idpHarness({ mode: 'b2b' });
    const local = await h.aUser({ email: 'ada@example.com', verified: true });

    await expect(h.signIn()).resolves.toMatchObject({ ok: true, outcome: 'linked', userId: local.id });
  });
});

describe('identity-provider account resolution: suspension', () => {
  it('refuses a returning user who has been suspended, as oauth_failed', async () => {
    const h = idpHarness();
    const first = await h.signIn();
    if (!first.ok || first.kind !== 'session') throw new Error('expected a session');
    h.store.users.get(first.userId)!.status = 'suspended';

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_failed', cause: `user ${first.userId} is suspended` });
  });

  it('refuses to link or claim an account of a suspended organization, leaving it untouched', async () => {
    const h = idpHarness();
    const local = await h.aUser({ email: 'ada@example.com', password: 'correct horse', verified: false });
    await h.ports.organizations.setStatus(local.organizationId, 'suspended');

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_failed' });
    await expect(h.ports.users.findById(local.id)).resolves.toMatchObject({ passwordHash: 'plain:correct horse', emailVerified: false });
    await expect(h.links.listByUser(local.id)).resolves.toEqual([]);
  });

  it('rolls an invitation of a suspended organization back: no user, invitation still pending', async () => {
    const h = idpHarness({ mode: 'b2b' });
    const { organization, invitation } = await h.invite('ada@example.com');
    await h.ports.organizations.setStatus(organization.id, 'suspended');
    const users = h.store.users.size;

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_failed' });
    expect(h.store.users.size).toBe(users);
    await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, h.clock.now())).resolves.toMatchObject({ id: invitation.id });
  });
});

describe('identity-provider account resolution: which invitation', () => {
  it('never joins an organization the user did not pick: two organizations invite the address, the sign-in named none', async () => {
    const h = idpHarness({ mode: 'b2b' });
    const first = await h.invite('ada@example.com');
    const second = await h.invite('ada@example.com');
    const users = h.store.users.size;

    await expect(h.signIn()).resolves.toMatchObject({ ok: false, reason: 'oauth_signup_closed' });
    expect(h.store.users.size).toBe(users);
    for (const { invitation } of [first, second]) {
      await expect(h.invitations.findPendingByTokenHash(invitation.tokenHash, h.clock.now())).resolves.not.toBeNull();
    }
  });

  it('joins the organization whose invitation link the sign-in started from, and only that one', async () => {
    const h = idpHarness({ mode: 'b2b' });
    const mine = await h.invite('ada@example.com', 'member');
    const other = await h.invite('ada@example.com', 'org_admin');

    const result = await h.signInFromInvitation(mine.token);

    expect(result).toMatchObject({ ok: true, outcome: 'invited' });
    if (!result.ok) throw new Error('expected a session');
    await expect(h.ports.users.findById(result.userId)).resolves.toMatchObject({ organizationId: mine.organization.id, role: 'member' });
    await expect(h.invitations.findPendingByTokenHash(other.invitation.tokenHash, h.clock.now())).resolves.not.toBeNull();
  });

  it("refuses an invitation link that is someone else's, or no longer pending", async () => {
    const h = idpHarness({ mode: 'b2b' });
    const theirs = await h.invite('grace@example.com');
    await expect(h.signInFromInvitation(theirs.token)).resolves.toMatchObject({ ok: false, reason: 'oauth_signup_closed' });

    const mine = await h.invite('ada@example.com');
    await h.invitations.revoke(mine.organization.id, mine.invitation.id, h.clock.now());
    await expect(h.signInFromInvitation(mine.token)).resolves.toMatchObject({ ok: false, reason: 'oauth_signup_closed' });
  });

  it('in B2C too, a sign-in from an invitation link joins that organization instead of making a personal one', async () => {
    const h = idpHarness({ mode: 'b2c' });
    const { organization, token } = await h.invite('ada@example.com', 'readonly');

    const result = await h.signInFromInvitation(token);

    expect(result).toMatchObject({ ok: true, outcome: 'invited' });
    if (result.ok) await expect(h.ports.users.findById(result.userId)).resolves.toMatchObject({ organizationId: organization.id, role: 'readonly' });
  });
});
