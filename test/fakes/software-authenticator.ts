import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A passkey authenticator in software: real ES256 keys, real CBOR attestation objects (format
 * `none`) and real signatures, in the WebAuthn JSON forms a browser's `toJSON()` gives. It does
 * what a browser will not: sign for another origin, report a counter that goes backwards, drop
 * the user-verified flag; each a knob of `register`/`assert`.
 */
export interface Tampering {
  /** The origin written into clientDataJSON (default: the authenticator's). */
  origin?: string;
  /** Clear the user-verified (UV) flag. */
  withoutUserVerification?: boolean;
  /** Report this signature counter instead of the next one. */
  counter?: number;
  /** Sign this challenge instead of the one in the options. */
  challenge?: string;
  /** Register the newest credential again (same id and key) instead of a new one. */
  reuseCredential?: boolean;
}

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

const b64url = (bytes: Buffer | Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

export class SoftwareAuthenticator {
  private readonly credentials: Credential[] = [];

  constructor(private readonly origin: string) {}

  /** The credential ids this authenticator holds, base64url. */
  get credentialIds(): string[] {
    return this.credentials.map((credential) => b64url(credential.id));
  }

  /** `navigator.credentials.create()` for creation options JSON: a RegistrationResponseJSON. */
  register(options: Record<string, unknown>, tampering: Tampering = {}): Record<string, unknown> {
    const rp = options.rp as { id: string };
    const user = options.user as { id: string };
    const reused = tampering.reuseCredential ? this.credentials.at(-1) : undefined;
    const { privateKey, publicKey } = reused ?? generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential: Credential = { id: reused?.id ?? randomBytes(16), privateKey, publicKey, rpId: rp.id, userHandle: user.id, counter: 0 };
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = new Map<number, unknown>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(jwk.x!, 'base64url')],
      [-3, Buffer.from(jwk.y!, 'base64url')],
    ]);
    const attested = Buffer.concat([Buffer.alloc(16), u16(credential.id.length), credential.id, cbor(coseKey)]);
    const authData = Buffer.concat([sha256(rp.id), Buffer.from([flags(tampering) | 0x40]), u32(tampering.counter ?? 0), attested]);
    const clientDataJSON = this.clientData('webauthn.create', tampering.challenge ?? (options.challenge as string), tampering);
    const attestationObject = cbor(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    this.credentials.push(credential);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** `navigator.credentials.get()` for request options JSON, with this authenticator's newest (or the given) credential. */
  assert(options: Record<string, unknown>, tampering: Tampering = {}, credentialId?: string): Record<string, unknown> {
    const credential = credentialId ? this.credentials.find((c) => b64url(c.id) === credentialId) : this.credentials.at(-1);
    if (!credential) throw new Error('The authenticator holds no credential');
    credential.counter = tampering.counter ?? credential.counter + 1;
    const authData = Buffer.concat([sha256(credential.rpId), Buffer.from([flags(tampering)]), u32(credential.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', tampering.challenge ?? (options.challenge as string), tampering);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string, tampering: Tampering): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: tampering.origin ?? this.origin, crossOrigin: false }));
  }
}

/** User present, and user verified unless tampered with. */
const flags = (tampering: Tampering) => 0x01 | (tampering.withoutUserVerification ? 0 : 0x04);

const u16 = (value: number) => {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
};
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(value);
  return buffer;
};

/** The CBOR this authenticator needs: unsigned and negative integers, byte and text strings, maps. */
function cbor(value: unknown): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Map) return Buffer.concat([head(5, value.size), ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item)])]);
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  return Buffer.concat([Buffer.from([(major << 5) | 25]), u16(length)]);
}
