/**
 * What an organization's audit log records: every change of security or administrative weight,
 * written in the same transaction as the change, so there is never a change without its event nor
 * an event without its change. An event never holds a secret, token, password, code or key.
 */

/** Dotted lower case: the thing, then what happened to it. */
export const AUDIT_ACTIONS = [
  'login.succeeded',
  'login.failed',
  'logout',
  'password.updated',
  'password.reset',
  'mfa.enabled',
  'mfa.disabled',
  'mfa.recovery_code_used',
  'passkey.added',
  'passkey.removed',
  'session.revoked',
  'invitation.created',
  'invitation.revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.suspended',
  'member.activated',
  'api_key.created',
  'api_key.revoked',
  'organization.settings_changed',
  'organization.suspended',
  'organization.activated',
  'subscription.started',
  'subscription.changed',
  'subscription.ended',
  'credit_pack.bought',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who made the change: a member, an organization API key, or the service itself (webhooks, jobs). */
export interface AuditActor {
  type: 'user' | 'api_key' | 'system';
  /** The user's or the key's id; null for the system. */
  id: number | null;
}

/** What the change was made to, when it is one thing (a member, an invitation, a key). */
export interface AuditTarget {
  type: string;
  id: string;
}

/** Where the request came from, as the HTTP edge saw it; both null when no request was involved. */
export interface AuditOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface NewAuditEvent {
  organizationId: number;
  action: AuditAction;
  actor: AuditActor;
  target: AuditTarget | null;
  origin: AuditOrigin;
  /** What changed (`{from: 'member', to: 'org_admin'}`): plain JSON, never a secret. */
  details: Record<string, unknown>;
}
