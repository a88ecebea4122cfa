import type { RequestOrigin } from '../access/caller';
import { NO_ORIGIN, userActor } from '../audit/audit-actor';
import type { AuditLog } from '../audit/audit-log.port';
import type { Logger } from '../shared/logger.port';
import type { SignInMethod } from './session-issuer';
import type { UserRepository } from './user-repository.port';

/** Why a sign-in of a known account failed, as its `login.failed` event says. */
export type SignInFailureReason = 'invalid_credentials' | 'account_suspended' | 'email_not_verified' | 'invalid_mfa_code';

export interface FailedSignIn {
  userId: number;
  /** The user's organization when already read; otherwise it is read with the event, off the request's path. */
  organizationId?: number;
  method: SignInMethod;
  reason: SignInFailureReason;
  origin?: RequestOrigin | undefined;
}

/**
 * Records `login.failed` for sign-ins of existing accounts without making the failure any slower:
 * the write starts after the current turn and the caller never waits for it. A failure for an
 * email with no account writes nothing (it belongs to no organization), so if the known-account
 * failure waited for its insert, the response time would tell which emails have accounts. There
 * is no change to share a transaction with (the failure counters live in the rate-limit store).
 * A write that fails is logged and dropped.
 */
export class FailedSignIns {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly ports: { users: Pick<UserRepository, 'findById'>; audit: AuditLog; logger: Logger }) {}

  /** Schedules the event; returns at once. */
  record(failure: FailedSignIn): void {
    const write: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.write(failure))
      .catch((error: unknown) => this.ports.logger.warn({ err: error, user_id: failure.userId }, 'could not record a failed sign-in'))
      .finally(() => this.inFlight.delete(write));
    this.inFlight.add(write);
  }

  /** Waits for the events already scheduled (tests, and a graceful shutdown). */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
  }

  private async write(failure: FailedSignIn): Promise<void> {
    const organizationId = failure.organizationId ?? (await this.ports.users.findById(failure.userId))?.organizationId;
    if (organizationId === undefined) return;
    const origin = failure.origin ? { ip: failure.origin.ip, userAgent: failure.origin.userAgent } : NO_ORIGIN;
    await this.ports.audit.record({
      organizationId,
      action: 'login.failed',
      actor: userActor(failure.userId),
      target: null,
      origin,
      details: { method: failure.method, reason: failure.reason },
    });
  }
}
