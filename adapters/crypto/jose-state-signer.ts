import { SignJWT, errors, jwtVerify } from 'jose';
import type { StateClaims, StateSigner, StateVerification } from '../../core/accounts/state-signer.port';

/** Set as `aud`: another JWT signed with the same secret is not a state. */
const AUDIENCE = 'tenantkit:idp-state';

/**
 * The OAuth `state` as a compact JWT, HS256 with the app's secret: `jti` is the
 * flow key, `bnd` the binding hash, `inv` the invitation hash when there is one, `iat`/`exp` from
 * the caller's clock. Verification pins the
 * algorithm (no `none`, no key confusion) and allows no clock leeway.
 */
export class JoseStateSigner implements StateSigner {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('The state signing secret must be at least 16 characters');
    this.key = new TextEncoder().encode(secret);
  }

  sign(claims: StateClaims, validity: { issuedAt: Date; expiresAt: Date }): Promise<string> {
    return new SignJWT({ bnd: claims.bindingHash, ...(claims.invitationHash === undefined ? {} : { inv: claims.invitationHash }) })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(claims.flowKey)
      .setAudience(AUDIENCE)
      .setIssuedAt(validity.issuedAt)
      .setExpirationTime(validity.expiresAt)
      .sign(this.key);
  }

  async verify(state: string, now: Date): Promise<StateVerification> {
    try {
      const { payload } = await jwtVerify(state, this.key, {
        algorithms: ['HS256'],
        audience: AUDIENCE,
        currentDate: now,
        clockTolerance: 0,
        requiredClaims: ['jti', 'iat', 'exp'],
      });
      if (typeof payload.jti !== 'string' || typeof payload.bnd !== 'string') return { valid: false, problem: 'malformed' };
      if (payload.inv !== undefined && typeof payload.inv !== 'string') return { valid: false, problem: 'malformed' };
      const invitation = typeof payload.inv === 'string' ? { invitationHash: payload.inv } : {};
      return { valid: true, claims: { flowKey: payload.jti, bindingHash: payload.bnd, ...invitation } };
    } catch (error) {
      if (error instanceof errors.JWTExpired) return { valid: false, problem: 'expired' };
      if (error instanceof errors.JWSSignatureVerificationFailed) return { valid: false, problem: 'bad_signature' };
      if (error instanceof errors.JOSEError) return { valid: false, problem: 'malformed' };
      throw error;
    }
  }
}
