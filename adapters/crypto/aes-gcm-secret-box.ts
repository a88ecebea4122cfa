import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { SecretBox } from '../../core/accounts/crypto.port';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * AES-256-GCM under a key derived (HKDF-SHA256) from a secret the caller holds elsewhere. Sealed:
 * base64url of iv ‖ ciphertext ‖ tag. A 43-character secret seals to 95 characters.
 */
export class AesGcmSecretBox implements SecretBox {
  constructor(private readonly purpose: string) {}

  seal(plaintext: string, key: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.derive(key), iv);
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  open(sealed: string, key: string): string | null {
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.derive(key), bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null;
    }
  }

  private derive(key: string): Buffer {
    return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), this.purpose, 32));
  }
}
