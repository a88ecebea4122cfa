import { randomInt } from 'node:crypto';
import type { RecoveryCodeGenerator } from '../../core/mfa/recovery-codes';

/** Crockford's base32 letters in lower case: no i, l, o or u to misread. */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** 16 characters from a CSPRNG (80 bits), shown as `xxxx-xxxx-xxxx-xxxx`. */
export class NodeRecoveryCodeGenerator implements RecoveryCodeGenerator {
  generate(): string {
    const characters = Array.from({ length: 16 }, () => ALPHABET[randomInt(ALPHABET.length)]!);
    return [0, 4, 8, 12].map((start) => characters.slice(start, start + 4).join('')).join('-');
  }
}
