import { defineEntity, p } from '@mikro-orm/core';
import { UserSchema } from './accounts.entities';

/** Second factors. One TOTP factor per user at most: the user is its primary key. */
export const UserTotpSchema = defineEntity({
  name: 'UserTotp',
  tableName: 'user_totp',
  properties: {
    user: p.manyToOne(UserSchema).primary().updateRule('cascade').deleteRule('cascade'),
    /** AES-256-GCM, `v1.<iv>.<ciphertext>.<tag>`: never the secret itself. */
    sealedSecret: p.string().length(200),
    confirmedAt: p.datetime().columnType('timestamptz').nullable(),
    // A TOTP step (unix seconds / 30) outgrows int4 in the year 4010; bigint costs nothing here.
    lastUsedStep: p.bigint().nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});

/** Recovery codes: SHA-256 of the normalized code only. */
export const MfaRecoveryCodeSchema = defineEntity({
  name: 'MfaRecoveryCode',
  tableName: 'mfa_recovery_code',
  indexes: [{ name: 'mfa_recovery_code_user_id_code_hash_index', properties: ['user', 'codeHash'] }],
  properties: {
    id: p.bigint().primary().autoincrement(),
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').index(false),
    codeHash: p.string().length(64),
    usedAt: p.datetime().columnType('timestamptz').nullable(),
  },
});

/** Sign-ins waiting for their second factor: SHA-256 of the challenge token only. */
export const MfaChallengeSchema = defineEntity({
  name: 'MfaChallenge',
  tableName: 'mfa_challenge',
  properties: {
    id: p.bigint().primary().autoincrement(),
    tokenHash: p.string().length(64).unique(),
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').index(),
    attempts: p.integer().default(0),
    createdAt: p.datetime().columnType('timestamptz'),
    // Serves the prune job, as on sessions.
    expiresAt: p.datetime().columnType('timestamptz').index(),
  },
});
