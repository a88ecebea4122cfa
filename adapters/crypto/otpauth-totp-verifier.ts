import { Secret, TOTP } from 'otpauth';
import type { TotpVerifier } from '../../core/mfa/totp-verifier.port';

/** What every mainstream authenticator app assumes when it scans a key URI. */
const PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const;
const SIX_DIGITS = /^\d{6}$/;

/**
 * TOTP on the `otpauth` library (RFC 4226/6238, checked against the RFC 6238 test vectors in
 * its test). Only arithmetic lives here; the acceptance rules are core's.
 */
export class OtpauthTotpVerifier implements TotpVerifier {
  generateSecret(): string {
    return new Secret({ size: 20 }).base32;
  }

  stepAt(at: Date): number {
    return TOTP.counter({ period: PARAMETERS.period, timestamp: at.getTime() });
  }

  findStep(input: { secret: string; code: string; at: Date; window: number }): number | null {
    if (!SIX_DIGITS.test(input.code)) return null;
    const delta = TOTP.validate({
      ...PARAMETERS,
      token: input.code,
      secret: Secret.fromBase32(input.secret),
      timestamp: input.at.getTime(),
      window: input.window,
    });
    return delta === null ? null : this.stepAt(input.at) + delta;
  }

  keyUri(input: { secret: string; issuer: string; account: string }): string {
    return new TOTP({ ...PARAMETERS, issuer: input.issuer, label: input.account, secret: Secret.fromBase32(input.secret) }).toString();
  }

  /** The code of `step` (tests and tools; the service itself only verifies). */
  codeAt(secret: string, step: number): string {
    return TOTP.generate({ ...PARAMETERS, secret: Secret.fromBase32(secret), timestamp: step * PARAMETERS.period * 1000 });
  }
}
