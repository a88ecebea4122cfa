import { AesGcmSecretBox, JoseStateSigner } from '../../test/builders/adapters';
import { describe, expect, it } from 'vitest';
import { idpHarness, STATE_SECRET } from '../../test/builders/idp';
import { IdentityProviderError } from './identity-provider.port';

const decode = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString()) as Record<string, unknown>;

describe('StartIdpLogin', () => {
  it('hands the provider a signed state carrying the flow key and the hash of the binding, for 10 minutes', async () => {
    const h = idpHarness();
    const started = await h.start.execute();

    const [request] = h.provider.issued;
    expect(started).toEqual({ authorizationUrl: request!.url, binding: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), maxAgeSeconds: 600 });
    const verified = await new JoseStateSigner(STATE_SECRET).verify(request!.state, h.clock.now());
    expect(verified).toEqual({ valid: true, claims: { flowKey: expect.any(String), bindingHash: h.ports.tokenHasher.hash(started.binding) } });
    const payload = decode(request!.state);
    expect((payload.exp as number) - (payload.iat as number)).toBe(600);
  });

  it('keeps the PKCE verifier and the nonce server-side, out of the state and the URL', async () => {
    const h = idpHarness();
    const started = await h.start.execute();

    const [request] = h.provider.issued;
    expect(request!.state).not.toContain(started.binding);
    for (const secret of [request!.codeVerifier, request!.nonce, started.binding]) {
      expect(JSON.stringify(decode(request!.state))).not.toContain(secret);
    }
    const rows = [...h.store.table<{ flow_key_hash: string; code_verifier: string; nonce: string; expires_at: Date }>('idp_login_flow').values()];
    expect(rows).toEqual([expect.objectContaining({ expires_at: new Date(h.clock.now().getTime() + 600_000) })]);
    // Stored sealed under the flow key, which only the state carries: a copy of the table opens nothing.
    const flowKey = decode(request!.state).jti as string;
    for (const secret of [request!.codeVerifier, request!.nonce, flowKey]) expect(JSON.stringify(rows)).not.toContain(secret);
    const box = new AesGcmSecretBox('tenantkit:idp-flow');
    expect(box.open(rows[0]!.code_verifier, flowKey)).toBe(request!.codeVerifier);
    expect(box.open(rows[0]!.nonce, flowKey)).toBe(request!.nonce);
  });

  it('gives every start its own flow key and binding', async () => {
    const h = idpHarness();
    const first = await h.start.execute();
    const second = await h.start.execute();

    expect(second.binding).not.toBe(first.binding);
    expect(decode(h.provider.issued[1]!.state).jti).not.toBe(decode(h.provider.issued[0]!.state).jti);
  });

  it('answers SERVICE_UNAVAILABLE and stores nothing when the provider cannot be reached, logging why', async () => {
    const h = idpHarness();
    h.provider.startFailure = new IdentityProviderError('Discovery failed: the provider is unreachable', 'unreachable');

    await expect(h.start.execute()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(h.store.table('idp_login_flow').size).toBe(0);
    expect(h.logs).toEqual([
      { level: 'warn', fields: { failure: 'unreachable', cause: 'Discovery failed: the provider is unreachable' }, message: 'identity provider unavailable' },
    ]);
  });

  it('lets a programming error through unchanged', async () => {
    const h = idpHarness();
    h.provider.startFailure = new TypeError('boom');

    await expect(h.start.execute()).rejects.toThrow(TypeError);
  });

  it('prunes flows that have expired, keeping live ones', async () => {
    const h = idpHarness();
    await h.start.execute();
    h.clock.advance(600_001);
    await h.start.execute();
    expect(h.store.table('idp_login_flow').size).toBe(1);
  });
});
