import { defineEntity, p } from '@mikro-orm/core';
import type { PasskeyDeviceType } from '../../../core/passkeys/passkey';
import { UserSchema } from './accounts.entities';

/** WebAuthn credentials: public keys only. A credential id belongs to one user across the service. */
export const PasskeySchema = defineEntity({
  name: 'Passkey',
  tableName: 'passkey',
  properties: {
    id: p.bigint().primary().autoincrement(),
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').index(),
    name: p.string().length(64),
    // base64url; WebAuthn caps credential ids at 1023 bytes (1364 characters).
    credentialId: p.string().length(1400).unique(),
    // The COSE key, base64url.
    publicKey: p.text(),
    // The authenticator's 32-bit signature counter.
    signCount: p.bigint().default(0),
    userHandle: p.string().length(64),
    deviceType: p.string().$type<PasskeyDeviceType>().length(20),
    backedUp: p.boolean(),
    // Comma-separated AuthenticatorTransport values (`internal,hybrid`).
    transports: p.string().length(200).default(''),
    createdAt: p.datetime().columnType('timestamptz'),
    lastUsedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

/**
 * Pending passkey ceremonies: SHA-256 of the challenge only. `binding` is `session:<id>` for a
 * registration and `cookie:<sha-256 of the passkey_challenge cookie>` for a sign-in.
 */
export const PasskeyChallengeSchema = defineEntity({
  name: 'PasskeyChallenge',
  tableName: 'passkey_challenge',
  properties: {
    id: p.bigint().primary().autoincrement(),
    binding: p.string().length(80).unique(),
    challengeHash: p.string().length(64),
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').nullable().index(),
    userHandle: p.string().length(64).nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
    // Serves the prune job, as on sessions.
    expiresAt: p.datetime().columnType('timestamptz').index(),
  },
});
