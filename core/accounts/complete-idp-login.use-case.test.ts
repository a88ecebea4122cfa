import { JoseStateSigner } from '../../test/builders/adapters';
import { describe, expect, it } from 'vitest';
import { idpHarness, STATE_SECRET } from '../../test/builders/idp';
import { AuthenticateSession } from './authenticate-session.use-case';
import { IdentityProviderError } from './identity-provider.port';
import { ConfirmTotp } from '../mfa/confirm-totp.use-case';
import { SetupTotp } from '../mfa/setup-totp.use-case';

const stateOf = (url: string) => new URL(url).searchParams.get('state') ?? '';

describe('CompleteIdpLogin: state, binding and one-time use', () => {
  it('signs in with a valid state, its binding cookie and a code, and issues a working session', async () => {
    const h = idpHarness();
    const result = await h.signIn();

    expect(result).toMatchObject({ ok: true, outcome: 'created', session: { token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
    if (!result.ok || result.kind !== 'session') throw new Error('expected a session');
    await expect(new AuthenticateSession(h.ports).execute(result.session.token)).resolves.toMatchObject({ userId: result.userId });
    expect(h.provider.completions).toHaveLength(1);
  });

  it.each([
    ['no state at all', { state: undefined }],
    ['a state that is not a JWT', { state: 'garbage' }],
    ['no binding cookie (another browser)', { binding: undefined }],
    ['the binding cookie of another sign-in', { binding: 'x'.repeat(43) }],
  ])('refuses %s as oauth_invalid_state without asking the provider', async (_label, overrides) => {
    const h = idpHarness();
    const result = await h.complete.execute(h.callback(await h.start.execute(), overrides));

    expect(result).toMatchObject({ ok: false, reason: 'oauth_invalid_state', cause: expect.any(String) });
    expect(h.provider.completions).toHaveLength(0);
  });

  it('refuses a state whose claims were changed after signing', async () => {
    const h = idpHarness();
    const started = await h.start.execute();
    const [header, payload, signature] = stateOf(started.authorizationUrl).split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, bnd: 'f'.repeat(64) })).toString('base64url')}.${signature}`;

    await expect(h.complete.execute(h.callback(started, { state: forged }))).resolves.toMatchObject({ ok: false, reason: 'oauth_invalid_state', cause: 'state bad signature' });
  });

  it('accepts the state until just before 10 minutes and refuses it from then on', async () => {
    const h = idpHarness();
    const early = await h.start.execute();
    const late = await h.start.execute();
    h.clock.advance(600_000 - 1);
    await expect(h.complete.execute(h.callback(early))).resolves.toMatchObject({ ok: true });
    h.clock.advance(1);
    await expect(h.complete.execute(h.callback(late))).resolves.toMatchObject({ ok: false, reason: 'oauth_invalid_state', cause: 'state expired' });
  });

  it('refuses a validly signed state whose flow never existed (forged with the secret)', async () => {
    const h = idpHarness();
    const started = await h.start.execute();
    const now = h.clock.now();
    const state = await new JoseStateSigner(STATE_SECRET).sign({ flowKey: 'never-started', bindingHash: h.ports.tokenHasher.hash(started.binding) }, { issuedAt: now, expiresAt: new Date(now.getTime() + 60_000) });

    await expect(h.complete.execute(h.callback(started, { query: { code: 'c', state } }))).resolves.toMatchObject({ ok: false, reason: 'oauth_invalid_state' });
  });

  it('accepts a state once: a replay is refused, even with the cookie', async () => {
    const h = idpHarness();
    const started = await h.start.execute();
    await expect(h.complete.execute(h.callback(started))).resolves.toMatchObject({ ok: true });

    await expect(h.complete.execute(h.callback(started))).resolves.toMatchObject({ ok: false, reason: 'oauth_invalid_state', cause: 'state already used, or its flow expired' });
    expect(h.provider.completions).toHaveLength(1);
  });

  it('lets exactly one of two simultaneous callbacks with the same state through', async () => {
    const h = idpHarness();
    const started = await h.start.execute();
    const results = await Promise.all([h.complete.execute(h.callback(started)), h.complete.execute(h.callback(started))]);

    expect(results.map((result) => result.ok).sort()).toEqual([false, true]);
  });

  it('does not spend the flow on a wrong binding, so the right browser can still finish', async () => {
    const h = idpHarness();
    const started = await h.start.execute();
    await expect(h.complete.execute(h.callback(started, { binding: undefined }))).resolves.toMatchObject({ reason: 'oauth_invalid_state' });

    await expect(h.complete.execute(h.callback(started))).resolves.toMatchObject({ ok: true });
  });

  it('revokes the session the browser presented once the new one exists', async () => {
    const h = idpHarness();
    const first = await h.signIn();
    if (!first.ok || first.kind !== 'session') throw new Error('expected a session');
    const second = await h.signIn({ presentedToken: first.session.token });

    expect(second).toMatchObject({ ok: true, outcome: 'returning' });
    await expect(new AuthenticateSession(h.ports).execute(first.session.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

describe("CompleteIdpLogin: the provider's answer", () => {
  it('reports error=access_denied as oauth_cancelled and spends the flow', async () => {
    const h = idpHarness();
    const started = await h.start.execute();
    const state = stateOf(started.authorizationUrl);

    await expect(h.complete.execute(h.callback(started, { query: { error: 'access_denied', state } }))).resolves.toMatchObject({ ok: false, reason: 'oauth_cancelled' });
    await expect(h.complete.execute(h.callback(started))).resolves.toMatchObject({ reason: 'oauth_invalid_state' });
    expect(h.provider.completions).toHaveLength(0);
  });

  it('reports any other error parameter as oauth_failed, naming it in the cause', async () => {
    const h = idpHarness();
    const started = await h.start.execute();
    const query = { error: 'server_error', state: stateOf(started.authorizationUrl) };

    await expect(h.complete.execute(h.callback(started, { query }))).resolves.toEqual({ ok: false, reason: 'oauth_failed', cause: 'the provider answered error=server_error' });
  });

  it('reports a callback without a code as oauth_missing_code', async () => {
    const h = idpHarness();
    const started = await h.start.execute();

    await expect(h.complete.execute(h.callback(started, { query: { state: stateOf(started.authorizationUrl) } }))).resolves.toMatchObject({ ok: false, reason: 'oauth_missing_code' });
  });

  it.each([
    ['unreachable', new IdentityProviderError('Authorization code exchange failed: the provider is unreachable', 'unreachable'), 'oauth_failed'],
    ['a refused code', new IdentityProviderError('invalid_grant', 'rejected', { oauthError: 'invalid_grant' }), 'oauth_failed'],
    ['a cancel seen by the adapter', new IdentityProviderError('access_denied', 'rejected', { oauthError: 'access_denied' }), 'oauth_cancelled'],
  ])('maps a provider failure (%s) to its reason, with the adapter message as cause', async (_label, failure, reason) => {
    const h = idpHarness();
    h.provider.failure = failure;

    await expect(h.signIn()).resolves.toEqual({ ok: false, reason, cause: `${failure.reason}: ${failure.message}` });
    expect(h.store.users.size).toBe(0);
  });

  it('turns an unexpected error into oauth_failed, handing the error over for the log', async () => {
    const h = idpHarness();
    const bug = new TypeError('boom');
    h.provider.failure = bug;

    await expect(h.signIn()).resolves.toEqual({ ok: false, reason: 'oauth_failed', cause: 'unexpected error', unexpected: bug });
  });
});

describe('CompleteIdpLogin of a user with a second factor', () => {
  it('issues no challenge while the account has spent its second-factor guesses: oauth_failed, said in the cause', async () => {
    const h = idpHarness();
    const first = await h.signIn();
    if (!first.ok) throw new Error('expected a sign-in');
    const caller = await new AuthenticateSession(h.ports).execute(first.kind === 'session' ? first.session.token : '');
    const { secret } = await new SetupTotp(h.mfaPorts).execute(caller);
    await new ConfirmTotp(h.mfaPorts).execute(caller, { code: h.totp.codeAt(secret, h.totp.stepAt(h.clock.now())) });
    await expect(h.signIn()).resolves.toMatchObject({ ok: true, kind: 'mfa_required' });
    const challenges = h.store.mfaChallenges.size;
    for (let i = 0; i < 10; i += 1) await h.mfaPorts.secondFactorThrottle.takeGuess(first.userId);

    const refused = await h.signIn();
    expect(refused).toEqual({ ok: false, reason: 'oauth_failed', cause: expect.stringContaining('second-factor') });
    expect(h.store.mfaChallenges.size).toBe(challenges);
    h.clock.advanceSeconds(900);
    await expect(h.signIn()).resolves.toMatchObject({ ok: true, kind: 'mfa_required' });
  });
});
