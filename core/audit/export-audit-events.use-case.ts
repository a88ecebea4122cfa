import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { DomainError } from '../shared/domain-error';
import type { AuditEvent } from './audit-event';
import type { AuditDeps } from './audit-deps';
import { assertOrderedRange } from './audit-page';

const DAY_MS = 86_400_000;

/** The longest range one export covers: a year, leap day included. */
export const EXPORT_MAX_DAYS = 366;

/** Events read per query of an export: a few hundred kilobytes of rows at a time. */
export const EXPORT_BATCH = 1_000;

export interface ExportRange {
  /** Inclusive; default: `EXPORT_MAX_DAYS` before `until`. */
  since?: Date;
  /** Exclusive; default: now. */
  until?: Date;
}

/**
 * The caller's organization's events of a time range, oldest first, for a SIEM. The range is
 * checked before anything is read; the events then come a batch at a time, each batch its own
 * short query continuing after the last id seen, read only when the consumer asks for more: memory
 * stays one batch whatever the range holds, and a slow reader holds no connection. An event
 * committed while the export runs appears in it only if it is newer than the batches already read
 * (ids are handed out when events are written and become visible when they commit).
 */
export class ExportAuditEvents {
  constructor(private readonly deps: Pick<AuditDeps, 'events' | 'clock'>) {}

  /** The range as it will be read; throws VALIDATION_ERROR for a bad one. */
  execute(caller: Caller, input: ExportRange): { since: Date; until: Date; events: AsyncIterable<AuditEvent> } {
    requireRole(caller, 'org_admin');
    const until = input.until ?? this.deps.clock.now();
    const since = input.since ?? new Date(until.getTime() - EXPORT_MAX_DAYS * DAY_MS);
    assertOrderedRange({ since, until });
    if (until.getTime() - since.getTime() > EXPORT_MAX_DAYS * DAY_MS) {
      throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { until: `Must be at most ${EXPORT_MAX_DAYS} days after since` });
    }
    return { since, until, events: this.read(caller.organizationId, since, until) };
  }

  private async *read(organizationId: number, since: Date, until: Date): AsyncGenerator<AuditEvent> {
    let afterId: number | undefined;
    for (;;) {
      const batch = await this.deps.events.listOldestFirst(organizationId, { since, until }, { limit: EXPORT_BATCH, ...(afterId === undefined ? {} : { afterId }) });
      yield* batch;
      if (batch.length < EXPORT_BATCH) return;
      afterId = batch[batch.length - 1]!.id;
    }
  }
}
