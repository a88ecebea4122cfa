import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { AtRestEncryption } from '../../core/shared/at-rest-encryption.port';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const ENCRYPTION_KEY_BYTES = 32;

/**
 * AES-256-GCM from node:crypto. A sealed value is `v1.<iv>.<ciphertext>.<tag>` in base64url: a
 * fresh 96-bit IV per value (random IVs are safe far beyond the number of secrets a service
 * stores), the 128-bit tag checked before anything is returned, the context as associated data.
 * The version prefix leaves room to rotate keys or algorithms without guessing formats.
 */
export class AesGcmAtRestEncryption implements AtRestEncryption {
  constructor(private readonly key: Buffer) {
    if (key.length !== ENCRYPTION_KEY_BYTES) throw new RangeError(`The encryption key must be ${ENCRYPTION_KEY_BYTES} bytes, got ${key.length}`);
  }

  seal(plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, ciphertext, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  open(sealed: string, context: string): string {
    const [version, iv, ciphertext, tag, ...rest] = sealed.split('.');
    if (version !== VERSION || iv === undefined || ciphertext === undefined || tag === undefined || rest.length > 0) {
      throw new Error('Not a sealed secret of a known format');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    // final() throws when the tag does not match: altered data, another key or another context.
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
