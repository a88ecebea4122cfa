import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AesGcmAtRestEncryption } from './aes-gcm-at-rest-encryption';

describe('AesGcmAtRestEncryption', () => {
  const box = new AesGcmAtRestEncryption(randomBytes(32));

  it('opens what it sealed, for any text and context', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string(), (plaintext, context) => {
        expect(box.open(box.seal(plaintext, context), context)).toBe(plaintext);
      }),
    );
  });

  it('never shows the plaintext and never seals twice the same way', () => {
    const a = box.seal('JBSWY3DPEHPK3PXP', 'totp-secret:user:1');
    const b = box.seal('JBSWY3DPEHPK3PXP', 'totp-secret:user:1');
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(a).not.toBe(b);
    expect(a).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('refuses another context, another key, and any altered byte', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP', 'totp-secret:user:1');
    expect(() => box.open(sealed, 'totp-secret:user:2')).toThrow();
    expect(() => new AesGcmAtRestEncryption(randomBytes(32)).open(sealed, 'totp-secret:user:1')).toThrow();
    const parts = sealed.split('.');
    for (const index of [1, 2, 3]) {
      const bytes = Buffer.from(parts[index]!, 'base64url');
      bytes[0] = bytes[0]! ^ 1;
      const altered = parts.map((part, i) => (i === index ? bytes.toString('base64url') : part)).join('.');
      expect(() => box.open(altered, 'totp-secret:user:1')).toThrow();
    }
    expect(() => box.open('v2.a.b.c', 'totp-secret:user:1')).toThrow('known format');
    expect(() => box.open('JBSWY3DPEHPK3PXP', 'totp-secret:user:1')).toThrow('known format');
  });

  it('takes only 32-byte keys', () => {
    expect(() => new AesGcmAtRestEncryption(randomBytes(16))).toThrow(RangeError);
  });
});
