import type { RequestOrigin } from '../access/caller';

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

export type AuditActorType = 'user' | 'api_key' | 'system';

/** Who made the change: a member, an organization API key, or the service itself (webhooks, jobs). */
export interface AuditActor {
  type: AuditActorType;
  /** The user's or the key's id; null for the system. */
  id: number | null;
  /**
   * The actor's email and display name as they were when the event happened, so the log still
   * names a member after they changed their address or left. For a user, omitted means "as the
   * user's row says now" (the adapter reads it in the same statement as the insert); an API
   * key's recorder passes the key's name.
   */
  email?: string | null;
  name?: string | null;
}

/** What the change was made to, when it is one thing (a member, an invitation, a key). */
export interface AuditTarget {
  type: string;
  id: string;
}

/** Where the request came from, as the HTTP edge saw it; both null when no request was involved. */
export type AuditOrigin = RequestOrigin;

export interface NewAuditEvent {
  organizationId: number;
  action: AuditAction;
  actor: AuditActor;
  target: AuditTarget | null;
  origin: AuditOrigin;
  /** What changed (`{from: 'member', to: 'org_admin'}`): plain JSON, never a secret. */
  details: Record<string, unknown>;
}

/** An event as recorded: what `NewAuditEvent` said, numbered and timed by the log. */
export interface AuditEvent {
  /** Increasing in the order events were recorded: the log's order. */
  id: number;
  organizationId: number;
  occurredAt: Date;
  action: AuditAction;
  actor: { type: AuditActorType; id: number | null; email: string | null; name: string | null };
  target: AuditTarget | null;
  origin: AuditOrigin;
  details: Record<string, unknown>;
}

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}
