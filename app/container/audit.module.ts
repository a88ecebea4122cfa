import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import { PostgresAuditLog } from '../../adapters/postgres/postgres-audit-log';

/**
 * The audit log: where every context records its audited changes (AuditLog, inside the change's
 * own transaction), and what the audit routes and the retention prune read and delete through.
 */
export function auditModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.AuditLog).toDynamicValue((ctx) => new PostgresAuditLog(ctx.get(TOKENS.Database)));
    bind(TOKENS.AuditEventRepository).toDynamicValue((ctx) => new PostgresAuditLog(ctx.get(TOKENS.Database)));
  });
}
