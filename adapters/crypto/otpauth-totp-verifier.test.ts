import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { OtpauthTotpVerifier } from './otpauth-totp-verifier';

/** RFC 6238 Appendix B, SHA-1 rows: the 20-byte ASCII key "12345678901234567890", 8 digits. */
const RFC_SECRET_ASCII = '12345678901234567890';
const RFC_VECTORS: Array<[unixSeconds: number, code: string]> = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('OtpauthTotpVerifier', () => {
  const verifier = new OtpauthTotpVerifier();
  const rfcSecret = Secret.fromLatin1(RFC_SECRET_ASCII).base32;

  it('reproduces the RFC 6238 SHA-1 test vectors (8 digits through the library, 6 through the verifier)', () => {
    for (const [seconds, code] of RFC_VECTORS) {
      const at = new Date(seconds * 1000);
      expect(TOTP.generate({ secret: Secret.fromBase32(rfcSecret), algorithm: 'SHA1', digits: 8, period: 30, timestamp: at.getTime() })).toBe(code);
      // A 6-digit code is the same truncation modulo 10^6: the last six digits of the 8-digit one.
      const step = verifier.stepAt(at);
      expect(step).toBe(Math.floor(seconds / 30));
      expect(verifier.codeAt(rfcSecret, step)).toBe(code.slice(2));
      expect(verifier.findStep({ secret: rfcSecret, code: code.slice(2), at, window: 0 })).toBe(step);
    }
  });

  it('finds codes of the neighbouring steps within the window only', () => {
    const at = new Date(1111111111 * 1000);
    const step = verifier.stepAt(at);
    for (const offset of [-1, 0, 1]) {
      expect(verifier.findStep({ secret: rfcSecret, code: verifier.codeAt(rfcSecret, step + offset), at, window: 1 })).toBe(step + offset);
    }
    for (const offset of [-2, 2]) {
      expect(verifier.findStep({ secret: rfcSecret, code: verifier.codeAt(rfcSecret, step + offset), at, window: 1 })).toBeNull();
    }
  });

  it('refuses anything that is not six digits', () => {
    const at = new Date(59_000);
    for (const code of ['', '28708', '2870822', ' 287082', '287 82', 'abcdef', '２８７０８２']) {
      expect(verifier.findStep({ secret: rfcSecret, code, at, window: 1 })).toBeNull();
    }
  });

  it('makes 160-bit base32 secrets and key URIs authenticator apps read', () => {
    const secret = verifier.generateSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(verifier.generateSecret()).not.toBe(secret);
    const uri = new URL(verifier.keyUri({ secret, issuer: 'tenantkit', account: 'ada@example.com' }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/tenantkit:ada@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ issuer: 'tenantkit', secret, algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
