import { totpSecretContext, TOTP_WINDOW, type MfaPorts } from './mfa-deps';
import type { TotpFactor } from './mfa-repository.port';

/**
 * Checks a TOTP code against a user's factor: the code must belong to a step within the window
 * around now, and that step must be newer than the last one accepted, which this call records.
 * Of two requests that present codes of one step, only one succeeds (no replay).
 */
export async function acceptTotpCode(
  ports: Pick<MfaPorts, 'mfa' | 'totp' | 'atRestEncryption' | 'clock'>,
  factor: TotpFactor,
  code: string,
): Promise<boolean> {
  const secret = ports.atRestEncryption.open(factor.sealedSecret, totpSecretContext(factor.userId));
  const step = ports.totp.findStep({ secret, code, at: ports.clock.now(), window: TOTP_WINDOW });
  if (step === null) return false;
  if (factor.lastUsedStep !== null && step <= factor.lastUsedStep) return false;
  return ports.mfa.useTotpStep(factor.userId, step);
}
