/** Recovery codes handed out when TOTP is confirmed; each works once. */
export const RECOVERY_CODE_COUNT = 10;

/** Random recovery codes: 16 characters of a 32-letter alphabet (80 bits), grouped by four. */
export interface RecoveryCodeGenerator {
  generate(): string;
}

/**
 * What a recovery code is compared as: lower case, without the separators and spaces people
 * type or paste with it. Codes are hashed in this form.
 */
export const normalizeRecoveryCode = (code: string): string => code.toLowerCase().replace(/[^0-9a-z]/g, '');
