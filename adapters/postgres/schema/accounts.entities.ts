import { defineEntity, p } from '@mikro-orm/core';
import type { TokenPurpose } from '../../../core/accounts/one-time-token-store.port';
import type { RoleName } from '../../../core/access/role';
import type { AccountStatus } from '../../../core/accounts/user';
import type { OutboxEmailStatus } from '../../../core/email/outbox-delivery.port';

/**
 * Accounts tables. These schemas are the single declaration of each table: migrations are
 * generated from them (`npm run migration:create`), a test fails when the two disagree, and the
 * row types of both adapter families are inferred from them (`./tables.ts`). Columns carry no
 * time defaults: every timestamp is written from the Clock.
 */
export const OrganizationSchema = defineEntity({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(200),
    status: p.string().$type<AccountStatus>().length(20).default('active'),
    overageEnabled: p.boolean().default(false),
    requireMfa: p.boolean().default(false),
    createdAt: p.datetime().columnType('timestamptz'),
    updatedAt: p.datetime().columnType('timestamptz'),
  },
});

export const UserSchema = defineEntity({
  name: 'User',
  tableName: 'app_user',
  indexes: [{ name: 'app_user_organization_id_role_index', properties: ['organization', 'role'] }],
  properties: {
    id: p.integer().primary().autoincrement(),
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(false),
    email: p.string().length(320).unique(),
    passwordHash: p.string().length(100).nullable(),
    firstName: p.string().length(100).nullable(),
    lastName: p.string().length(100).nullable(),
    role: p.string().$type<RoleName>().length(20),
    emailVerifiedAt: p.datetime().columnType('timestamptz').nullable(),
    status: p.string().$type<AccountStatus>().length(20).default('active'),
    // Incremented with every password change; sessions made under an older value are dead.
    credentialsVersion: p.integer().default(0),
    createdAt: p.datetime().columnType('timestamptz'),
    updatedAt: p.datetime().columnType('timestamptz'),
  },
});

export const SessionSchema = defineEntity({
  name: 'Session',
  tableName: 'session',
  properties: {
    id: p.bigint().primary().autoincrement(),
    tokenHash: p.string().length(64).unique(),
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').index(),
    userAgent: p.string().length(255).nullable(),
    // An IPv6 address in its longest written form is 45 characters.
    ip: p.string().length(45).nullable(),
    // The user's credentials version when the session was made (or renewed).
    credentialsVersion: p.integer().default(0),
    // Made by a passkey sign-in with user verification: it meets an organization's MFA requirement.
    viaPasskey: p.boolean().default(false),
    createdAt: p.datetime().columnType('timestamptz'),
    lastSeenAt: p.datetime().columnType('timestamptz'),
    // Serves the prune job: "expired before a cutoff", oldest first, in bounded batches.
    expiresAt: p.datetime().columnType('timestamptz').index(),
  },
});

export const OneTimeTokenSchema = defineEntity({
  name: 'OneTimeToken',
  tableName: 'one_time_token',
  properties: {
    id: p.bigint().primary().autoincrement(),
    tokenHash: p.string().length(64).unique(),
    purpose: p.string().$type<TokenPurpose>().length(30),
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').index(),
    expiresAt: p.datetime().columnType('timestamptz'),
    usedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});

export const EmailOutboxSchema = defineEntity({
  name: 'EmailOutbox',
  tableName: 'email_outbox',
  indexes: [{ name: 'email_outbox_status_next_attempt_at_index', properties: ['status', 'nextAttemptAt'] }],
  properties: {
    id: p.bigint().primary().autoincrement(),
    idempotencyKey: p.uuid().unique(),
    recipient: p.string().length(320),
    subject: p.string().length(500),
    textBody: p.text(),
    htmlBody: p.text(),
    tag: p.string().length(50).nullable(),
    status: p.string().$type<OutboxEmailStatus>().length(20).default('pending'),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().columnType('timestamptz'),
    lastError: p.text().nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
    // Serves the retention prune: sent emails older than a cutoff.
    sentAt: p.datetime().columnType('timestamptz').nullable().index(),
  },
});
