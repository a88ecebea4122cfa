import { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import { copilotRoutes } from '../http/routes/copilot.routes';
import { systemSettingsRoutes } from '../http/routes/settings.routes';
import { usageRoutes } from '../http/routes/usage.routes';
import { OpenAiLanguageModel } from '../../adapters/openai/openai-language-model';
import { PostgresAiCapacity } from '../../adapters/postgres/postgres-ai-capacity';
import { PostgresCopilotAdmission } from '../../adapters/postgres/postgres-copilot-admission';
import { PostgresCreditLedger } from '../../adapters/postgres/postgres-credit-ledger';
import { PostgresOverageReportStore } from '../../adapters/postgres/postgres-overage-report-store';
import { PostgresSystemSettingsRepository } from '../../adapters/postgres/postgres-system-settings-repository';
import { PostgresUsageLog } from '../../adapters/postgres/postgres-usage-log';
import type { AiDeps } from '../../core/ai/ai-deps';
import { GetUsageSummary } from '../../core/ai/get-usage-summary.use-case';
import type { LanguageModel } from '../../core/ai/language-model.port';
import { ListTopUsers } from '../../core/ai/list-top-users.use-case';
import { ListUsageHistory } from '../../core/ai/list-usage-history.use-case';
import { RunCopilotCall } from '../../core/ai/run-copilot-call.use-case';
import { ReleaseExpiredReservations } from '../../core/ai/release-expired-reservations.use-case';
import { GetSystemSettings, UpdateSystemSettings } from '../../core/ai/system-settings.use-case';
import { EffectivePlanResolver } from '../../core/plans/effective-plan';

/**
 * The longest a copilot call may stream before it is aborted (it is then charged for what it
 * used). A 2,000-token answer takes well under a minute at the speeds models write.
 */
export const COPILOT_MAX_CALL_MS = 180_000;
/**
 * How long a reservation lives unsettled before the jobs release it. Only a process that died
 * mid-call leaves one that long: every live call ends (settled) within COPILOT_MAX_CALL_MS, so
 * this is that bound, plus a settlement that waited on a slow database, with a wide margin. The
 * cost of the margin is credits held (not lost) for ten minutes after a crash.
 */
export const RESERVATION_TTL_MS = 600_000;

function languageModel(config: AppConfig): LanguageModel | null {
  if (!config.openai) return null;
  return new OpenAiLanguageModel({ apiKey: config.openai.apiKey, ...(config.openai.baseUrl ? { baseUrl: config.openai.baseUrl } : {}) });
}

/**
 * The AI copilot: the model (OpenAI or any compatible server; none without APP_OPENAI_API_KEY,
 * and the copilot answers FEATURE_DISABLED), the hard cap and its tables on PostgreSQL, the use
 * cases and routes of the copilot, usage and system settings, and the plan's `token_limit` usage
 * (what the allotment has been charged this period).
 */
export function aiModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.AiCapacity).toDynamicValue((ctx) => new PostgresAiCapacity(ctx.get(TOKENS.Database)));
    bind(TOKENS.CreditLedger).toDynamicValue((ctx) => new PostgresCreditLedger(ctx.get(TOKENS.Database)));
    bind(TOKENS.OverageReportStore).toDynamicValue((ctx) => new PostgresOverageReportStore(ctx.get(TOKENS.Database)));
    bind(TOKENS.SystemSettingsRepository).toDynamicValue((ctx) => new PostgresSystemSettingsRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.MeteredUsageReaders).toDynamicValue((ctx) => {
      const capacity = ctx.get(TOKENS.AiCapacity);
      return { token_limit: async (organizationId, period) => (await capacity.snapshot(organizationId, period)).allotmentUsed };
    });

    bind(TOKENS.AiDeps).toDynamicValue((ctx): AiDeps => {
      const config = ctx.get(TOKENS.Config);
      const database = ctx.get(TOKENS.Database);
      return {
        model: languageModel(config),
        capacity: ctx.get(TOKENS.AiCapacity),
        plans: new EffectivePlanResolver({ plans: ctx.get(TOKENS.PlanRepository), subscriptions: ctx.get(TOKENS.SubscriptionRepository), clock: ctx.get(TOKENS.Clock) }),
        admission: new PostgresCopilotAdmission(database),
        systemSettings: ctx.get(TOKENS.SystemSettingsRepository),
        usageLog: new PostgresUsageLog(database),
        overageReports: ctx.get(TOKENS.OverageReportStore),
        clock: ctx.get(TOKENS.Clock),
        logger: ctx.get(TOKENS.Logger),
        settings: { model: config.openai?.model ?? 'gpt-5-mini', maxCallMs: COPILOT_MAX_CALL_MS, reservationTtlMs: RESERVATION_TTL_MS, modelSetting: 'APP_OPENAI_API_KEY' },
      };
    });
    bind(TOKENS.AiUseCases).toDynamicValue((ctx) => {
      const deps = ctx.get(TOKENS.AiDeps);
      return {
        runCopilotCall: new RunCopilotCall(deps),
        getUsageSummary: new GetUsageSummary(deps),
        listUsageHistory: new ListUsageHistory(deps),
        listTopUsers: new ListTopUsers(deps),
        getSystemSettings: new GetSystemSettings(deps),
        updateSystemSettings: new UpdateSystemSettings(deps),
        releaseExpiredReservations: new ReleaseExpiredReservations(deps),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) => copilotRoutes(ctx.get(TOKENS.AiUseCases)));
    bind(TOKENS.Routes).toDynamicValue((ctx) => usageRoutes(ctx.get(TOKENS.AiUseCases), { baseApiUrl: ctx.get(TOKENS.Config).baseApiUrl }));
    bind(TOKENS.Routes).toDynamicValue((ctx) => systemSettingsRoutes(ctx.get(TOKENS.AiUseCases)));
  });
}
