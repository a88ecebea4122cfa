/**
 * `npm start` with audit recording turned off: the same server, the same composition, but every
 * `AuditLog.record` returns at once without writing. Only the audit benchmark starts it, as the
 * yardstick for what recording costs a sign-in; nothing in the product can turn recording off.
 */
import { PostgresAuditLog } from '../../adapters/postgres/postgres-audit-log';

PostgresAuditLog.prototype.record = async () => undefined;

await import('../../app/main');
