/** A user's TOTP factor. Unconfirmed until a first code proved the authenticator holds it. */
export interface TotpFactor {
  userId: number;
  /** The base32 secret as sealed by the AtRestEncryption; never stored in the clear. */
  sealedSecret: string;
  confirmedAt: Date | null;
  /** The newest step whose code was accepted; codes of this step or earlier are refused. */
  lastUsedStep: number | null;
  createdAt: Date;
}

/**
 * Second factors: at most one TOTP factor per user, and that user's recovery codes (stored as
 * SHA-256 hashes only: they are high-entropy random strings, so a fast hash is enough).
 */
export interface MfaRepository {
  findTotp(userId: number): Promise<TotpFactor | null>;
  /**
   * Stores a new unconfirmed factor, replacing an unconfirmed one. Returns false, changing
   * nothing, when the user already has a confirmed factor.
   */
  saveUnconfirmedTotp(input: { userId: number; sealedSecret: string; createdAt: Date }): Promise<boolean>;
  /**
   * Confirms the unconfirmed factor, records `step` as used and replaces the user's recovery
   * codes with `recoveryCodeHashes`. Returns false, changing nothing, when there is no
   * unconfirmed factor (none, or already confirmed).
   */
  confirmTotp(input: { userId: number; confirmedAt: Date; step: number; recoveryCodeHashes: string[] }): Promise<boolean>;
  /**
   * Records `step` as the newest accepted one, only if it is newer than `lastUsedStep` of a
   * confirmed factor. Returns whether it did: of two requests presenting codes of one step, one
   * wins (no replay).
   */
  useTotpStep(userId: number, step: number): Promise<boolean>;
  /** Marks the unused recovery code with that hash used; returns false when none matches. Each code works once. */
  useRecoveryCode(userId: number, codeHash: string, usedAt: Date): Promise<boolean>;
  /** How many unused recovery codes the user has left. */
  countUnusedRecoveryCodes(userId: number): Promise<number>;
  /** Removes the factor and every recovery code of the user. Idempotent. */
  removeAll(userId: number): Promise<void>;
}
