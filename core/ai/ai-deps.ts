import type { OrganizationRepository } from '../accounts/organization-repository.port';
import type { NoteRepository } from '../notes/note-repository.port';
import type { EffectivePlan } from '../plans/effective-plan';
import type { Clock } from '../shared/clock.port';
import type { Logger } from '../shared/logger.port';
import type { AiCapacity } from './ai-capacity.port';
import type { CopilotReader } from './copilot-reads.port';
import type { LanguageModel } from './language-model.port';
import type { ModelPriceRepository } from './model-price.port';
import type { OverageReportStore } from './overage-report.port';
import type { SystemSettingsRepository } from './system-settings.port';
import type { UsageLog } from './usage-log.port';

/** What the AI use cases are built from; each takes the `Pick` it needs as its one `deps`. */
export interface AiDeps {
  notes: Pick<NoteRepository, 'findById'>;
  /** Null when no model is configured: the copilot answers FEATURE_DISABLED. */
  model: LanguageModel | null;
  capacity: AiCapacity;
  /** The organization's effective plan and usage period (plans context). */
  plans: { forOrganization(organizationId: number): Promise<EffectivePlan> };
  organizations: Pick<OrganizationRepository, 'findSettings'>;
  systemSettings: SystemSettingsRepository;
  /**
   * The copilot's reads before its checks in one go (the note, the subscription and its plans, the
   * overage switches). Optional: without it the copilot reads them through the repositories above,
   * in parallel, with the same result.
   */
  reader?: CopilotReader;
  prices: ModelPriceRepository;
  usageLog: UsageLog;
  overageReports: OverageReportStore;
  clock: Clock;
  logger: Logger;
  settings: AiSettings;
}

export interface AiSettings {
  /** The model every call uses (APP_OPENAI_MODEL). */
  model: string;
  /**
   * How long a reservation may stay unsettled before the jobs release it as abandoned. Longer
   * than the longest call (the HTTP edge aborts calls well before), so only a reservation whose
   * process died is ever released this way.
   */
  reservationTtlMs: number;
  /**
   * The deployment setting that turns the model on (APP_OPENAI_API_KEY): named, never its value,
   * in the FEATURE_DISABLED a caller gets while it is unset, so the error blames the server's
   * configuration rather than the plan.
   */
  modelSetting?: string;
}
