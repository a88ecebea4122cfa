import { describe, expect, it } from 'vitest';
import { AesGcmSecretBox } from './aes-gcm-secret-box';

describe('AesGcmSecretBox', () => {
  const box = new AesGcmSecretBox('tenantkit:test');
  const key = 'k'.repeat(43);

  it('opens what it sealed with the same key, and nothing else', () => {
    const sealed = box.seal('the-pkce-verifier', key);
    expect(sealed).not.toContain('the-pkce-verifier');
    expect(box.open(sealed, key)).toBe('the-pkce-verifier');
    expect(box.open(sealed, 'x'.repeat(43))).toBeNull();
    expect(new AesGcmSecretBox('tenantkit:other').open(sealed, key)).toBeNull();
    const tampered = Buffer.from(sealed, 'base64url');
    tampered[14] = tampered[14]! ^ 1;
    expect(box.open(tampered.toString('base64url'), key)).toBeNull();
    expect(box.open('short', key)).toBeNull();
  });

  it('seals a 43-character secret into 95 characters, a fresh IV each time', () => {
    const a = box.seal('v'.repeat(43), key);
    expect(a).toHaveLength(95);
    expect(box.seal('v'.repeat(43), key)).not.toBe(a);
  });
});
