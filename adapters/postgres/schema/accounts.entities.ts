import { EntitySchema } from '@mikro-orm/core';

/**
 * Accounts tables. These schemas are the single declaration of each table: migrations are
 * generated from them (`npm run migration:create`) and a test fails when the two disagree.
 * Columns carry no time defaults: every timestamp is written from the Clock.
 */
export interface OrganizationEntity {
  id: number;
  name: string;
  status: string;
  createdAt: Date;
  updatedAt: Date;
}

export const OrganizationSchema = new EntitySchema<OrganizationEntity>({
  name: 'Organization',
  tableName: 'organization',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 200 },
    status: { type: 'string', length: 20, default: 'active' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export interface UserEntity {
  id: number;
  organization: OrganizationEntity;
  email: string;
  passwordHash?: string;
  firstName?: string;
  lastName?: string;
  role: string;
  emailVerifiedAt?: Date;
  status: string;
  createdAt: Date;
  updatedAt: Date;
}

export const UserSchema = new EntitySchema<UserEntity>({
  name: 'User',
  tableName: 'app_user',
  indexes: [{ name: 'app_user_organization_id_role_index', properties: ['organization', 'role'] }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    organization: { kind: 'm:1', entity: () => OrganizationSchema, updateRule: 'cascade', deleteRule: 'cascade', index: false },
    email: { type: 'string', length: 320, unique: true },
    passwordHash: { type: 'string', length: 100, nullable: true },
    firstName: { type: 'string', length: 100, nullable: true },
    lastName: { type: 'string', length: 100, nullable: true },
    role: { type: 'string', length: 20 },
    emailVerifiedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    status: { type: 'string', length: 20, default: 'active' },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export interface SessionEntity {
  id: number;
  tokenHash: string;
  user: UserEntity;
  createdAt: Date;
  expiresAt: Date;
}

export const SessionSchema = new EntitySchema<SessionEntity>({
  name: 'Session',
  tableName: 'session',
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    tokenHash: { type: 'string', length: 64, unique: true },
    user: { kind: 'm:1', entity: () => UserSchema, updateRule: 'cascade', deleteRule: 'cascade', index: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    // Serves the prune job: "expired before a cutoff", oldest first, in bounded batches.
    expiresAt: { type: 'Date', columnType: 'timestamptz', index: true },
  },
});

export interface OneTimeTokenEntity {
  id: number;
  tokenHash: string;
  purpose: string;
  user: UserEntity;
  expiresAt: Date;
  usedAt?: Date;
  createdAt: Date;
}

export const OneTimeTokenSchema = new EntitySchema<OneTimeTokenEntity>({
  name: 'OneTimeToken',
  tableName: 'one_time_token',
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    tokenHash: { type: 'string', length: 64, unique: true },
    purpose: { type: 'string', length: 30 },
    user: { kind: 'm:1', entity: () => UserSchema, updateRule: 'cascade', deleteRule: 'cascade', index: true },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    usedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export interface EmailOutboxEntity {
  id: number;
  idempotencyKey: string;
  recipient: string;
  subject: string;
  textBody: string;
  htmlBody: string;
  tag?: string;
  status: string;
  attempts: number;
  nextAttemptAt: Date;
  lastError?: string;
  createdAt: Date;
  sentAt?: Date;
}

export const EmailOutboxSchema = new EntitySchema<EmailOutboxEntity>({
  name: 'EmailOutbox',
  tableName: 'email_outbox',
  indexes: [{ name: 'email_outbox_status_next_attempt_at_index', properties: ['status', 'nextAttemptAt'] }],
  properties: {
    id: { type: 'bigint', primary: true, autoincrement: true },
    idempotencyKey: { type: 'uuid', unique: true },
    recipient: { type: 'string', length: 320 },
    subject: { type: 'string', length: 500 },
    textBody: { type: 'text' },
    htmlBody: { type: 'text' },
    tag: { type: 'string', length: 50, nullable: true },
    status: { type: 'string', length: 20, default: 'pending' },
    attempts: { type: 'integer', default: 0 },
    nextAttemptAt: { type: 'Date', columnType: 'timestamptz' },
    lastError: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
    sentAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
  },
});
