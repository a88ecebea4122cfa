/** How a passkey's private key lives: on one device, or synced between a user's devices. */
export type PasskeyDeviceType = 'single_device' | 'multi_device';

/** A WebAuthn credential registered to a user. Only its public key is stored: nothing secret. */
export interface Passkey {
  id: number;
  userId: number;
  name: string;
  /** The credential id, base64url, as the authenticator gave it. Unique across all users. */
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  /** The signature counter last seen; 0 for authenticators that do not count. */
  counter: number;
  /** The opaque WebAuthn user handle the credential was created for. */
  userHandle: string;
  deviceType: PasskeyDeviceType;
  backedUp: boolean;
  transports: string[];
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A challenge lives 5 minutes and is used at most once. */
export const PASSKEY_CHALLENGE_TTL_SECONDS = 300;

/** The name a passkey gets when its owner gives none: "Passkey" and the creation date. */
export const defaultPasskeyName = (createdAt: Date): string => `Passkey ${createdAt.toISOString().slice(0, 10)}`;
