import { SignJWT, UnsecuredJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { JoseStateSigner } from './jose-state-signer';

const SECRET = 'a-test-secret-of-32-characters!!';
const claims = { flowKey: 'flow-key-123', bindingHash: 'b'.repeat(64) };
const issuedAt = new Date('2026-11-21T10:00:00.000Z');
const expiresAt = new Date('2026-11-21T10:10:00.000Z');
const at = (offsetMs: number) => new Date(issuedAt.getTime() + offsetMs);

describe('JoseStateSigner', () => {
  const signer = new JoseStateSigner(SECRET);

  it('round-trips the claims as an HS256 JWT with jti, bnd, aud, iat and exp', async () => {
    const state = await signer.sign(claims, { issuedAt, expiresAt });
    const [header, payload] = state.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>);
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(payload).toEqual({ jti: 'flow-key-123', bnd: 'b'.repeat(64), aud: 'tenantkit:idp-state', iat: 1_795_255_200, exp: 1_795_255_800 });
    await expect(signer.verify(state, at(1_000))).resolves.toEqual({ valid: true, claims });
  });

  it('accepts the state until just before exp and refuses it from exp on (no leeway)', async () => {
    const state = await signer.sign(claims, { issuedAt, expiresAt });
    await expect(signer.verify(state, at(600_000 - 1))).resolves.toMatchObject({ valid: true });
    await expect(signer.verify(state, at(600_000))).resolves.toEqual({ valid: false, problem: 'expired' });
  });

  it('refuses a state signed with another secret or altered after signing', async () => {
    const foreign = await new JoseStateSigner('another-secret-of-32-characters!').sign(claims, { issuedAt, expiresAt });
    await expect(signer.verify(foreign, at(0))).resolves.toEqual({ valid: false, problem: 'bad_signature' });
    const state = await signer.sign(claims, { issuedAt, expiresAt });
    const [header, , signature] = state.split('.');
    const forged = Buffer.from(JSON.stringify({ jti: 'other', bnd: 'c'.repeat(64), aud: 'tenantkit:idp-state', iat: 1_795_255_200, exp: 1_795_255_800 })).toString('base64url');
    await expect(signer.verify(`${header}.${forged}.${signature}`, at(0))).resolves.toEqual({ valid: false, problem: 'bad_signature' });
  });

  it('refuses alg none, other audiences, missing claims and garbage as malformed', async () => {
    const key = new TextEncoder().encode(SECRET);
    const unsigned = new UnsecuredJWT({ bnd: 'x' }).setJti('k').setAudience('tenantkit:idp-state').setIssuedAt(issuedAt).setExpirationTime(expiresAt).encode();
    const otherAudience = await new SignJWT({ bnd: 'x' }).setProtectedHeader({ alg: 'HS256' }).setJti('k').setAudience('api').setIssuedAt(issuedAt).setExpirationTime(expiresAt).sign(key);
    const noBinding = await new SignJWT({}).setProtectedHeader({ alg: 'HS256' }).setJti('k').setAudience('tenantkit:idp-state').setIssuedAt(issuedAt).setExpirationTime(expiresAt).sign(key);
    const noExpiry = await new SignJWT({ bnd: 'x' }).setProtectedHeader({ alg: 'HS256' }).setJti('k').setAudience('tenantkit:idp-state').setIssuedAt(issuedAt).sign(key);
    for (const state of [unsigned, otherAudience, noBinding, noExpiry, 'not-a-jwt', '']) {
      await expect(signer.verify(state, at(0))).resolves.toEqual({ valid: false, problem: 'malformed' });
    }
  });

  it('refuses a short secret', () => {
    expect(() => new JoseStateSigner('short')).toThrow(/at least 16/);
  });
});
