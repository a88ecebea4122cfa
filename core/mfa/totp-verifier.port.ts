/**
 * TOTP code arithmetic (RFC 6238 with SHA-1, 6 digits and 30-second steps). A step is
 * `floor(unix seconds / 30)`. The port only computes; which steps are acceptable, replay and the
 * number of tries are decided in core.
 */
export interface TotpVerifier {
  /** A fresh random secret: 160 bits, base32 without padding (what authenticator apps expect). */
  generateSecret(): string;
  /** The step that contains `at`. */
  stepAt(at: Date): number;
  /**
   * The step among `stepAt(at) − window … stepAt(at) + window` whose code equals `code`
   * (compared in constant time; nearest to `stepAt(at)` first, the earlier side before the later,
   * should two steps share a code); null when none does or `code` is not six digits.
   */
  findStep(input: { secret: string; code: string; at: Date; window: number }): number | null;
  /** The `otpauth://totp/…` URI an authenticator app scans. */
  keyUri(input: { secret: string; issuer: string; account: string }): string;
}
