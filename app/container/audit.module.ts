import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import { PostgresAuditLog } from '../../adapters/postgres/postgres-audit-log';
import { auditRoutes } from '../http/routes/audit.routes';
import type { AuditDeps } from '../../core/audit/audit-deps';
import { ListAuditEvents } from '../../core/audit/list-audit-events.use-case';
import { ListOrganizationAuditEvents } from '../../core/audit/list-organization-audit-events.use-case';
import { ExportAuditEvents } from '../../core/audit/export-audit-events.use-case';
import { PruneAuditEvents } from '../../core/audit/prune-audit-events.use-case';

/**
 * The audit log: where every context records its audited changes (AuditLog, inside the change's
 * own transaction), the routes that read it, and the retention prune the jobs run.
 */
export function auditModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.AuditLog).toDynamicValue((ctx) => new PostgresAuditLog(ctx.get(TOKENS.Database)));
    bind(TOKENS.AuditEventRepository).toDynamicValue((ctx) => new PostgresAuditLog(ctx.get(TOKENS.Database)));

    bind(TOKENS.AuditUseCases).toDynamicValue((ctx) => {
      const organizations = ctx.get(TOKENS.OrganizationRepository);
      const deps: AuditDeps = {
        audit: ctx.get(TOKENS.AuditLog),
        events: ctx.get(TOKENS.AuditEventRepository),
        organizations: { exists: async (id) => (await organizations.findById(id)) !== null },
        clock: ctx.get(TOKENS.Clock),
        settings: { retentionDays: ctx.get(TOKENS.Config).auditRetentionDays },
      };
      return {
        listAuditEvents: new ListAuditEvents(deps),
        listOrganizationAuditEvents: new ListOrganizationAuditEvents(deps),
        exportAuditEvents: new ExportAuditEvents(deps),
        pruneAuditEvents: new PruneAuditEvents(deps),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) => auditRoutes(ctx.get(TOKENS.AuditUseCases), { baseApiUrl: ctx.get(TOKENS.Config).baseApiUrl }));
  });
}
