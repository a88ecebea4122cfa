import type { NewAuditEvent } from './audit-event';

/**
 * Appends events to organizations' audit logs. `record` joins the UnitOfWork transaction it is
 * called in: call it inside the same `unitOfWork.transaction` as the change it records, so both
 * commit together or neither does. No method changes or deletes an event except retention pruning.
 */
export interface AuditLog {
  record(event: NewAuditEvent): Promise<void>;
}
