import type { BillingDeps } from '../billing/billing-deps';
import type { Clock } from '../shared/clock.port';
import type { DeliveryPolicy } from '../shared/leased-delivery';
import type { Logger } from '../shared/logger.port';
import type { EffectivePlan } from '../plans/effective-plan';
import type { AiCapacity } from './ai-capacity.port';
import type { CopilotAdmission } from './copilot-admission.port';
import type { LanguageModel } from './language-model.port';
import type { OverageReportStore } from './overage-report.port';
import type { SystemSettingsRepository } from './system-settings.port';
import type { UsageLog } from './usage-log.port';

/** What the AI use cases are built from; each takes the `Pick` it needs as its one `deps`. */
export interface AiDeps {
  /** Null when no model is configured: the copilot answers FEATURE_DISABLED. */
  model: LanguageModel | null;
  capacity: AiCapacity;
  /** A copilot call's checks and reservation in one step. */
  admission: CopilotAdmission;
  /** The organization's effective plan and usage period (plans context). */
  plans: { forOrganization(organizationId: number): Promise<EffectivePlan> };
  systemSettings: SystemSettingsRepository;
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
   * The longest a copilot call may run: then its model call is aborted, and it is charged for
   * what it used. Shorter than `reservationTtlMs`, so a live call is always settled before the
   * jobs could release its reservation.
   */
  maxCallMs: number;
  /**
   * How long a reservation may stay unsettled before the jobs release it as abandoned. Longer
   * than the longest call (`maxCallMs`), so only a reservation whose process died is ever
   * released this way.
   */
  reservationTtlMs: number;
  /**
   * How long a provider that has reported its usage (its last event) is given to end its stream
   * before it is stopped: the stream is read to its end rather than left (leaving it costs every
   * call an abort), and a provider that keeps it open must not hold the answer and the
   * reservation until `maxCallMs`. Default 2 s.
   */
  providerEndGraceMs?: number;
  /**
   * The deployment setting that turns the model on (APP_OPENAI_API_KEY): named, never its value,
   * in the FEATURE_DISABLED a caller gets while it is unset, so the error blames the server's
   * configuration rather than the plan.
   */
  modelSetting?: string;
}

/**
 * What reporting overage to the billing provider adds to AiDeps: billing's ports (the meter, and
 * the customer created on first need), built only when billing is configured.
 */
export interface OverageReportingDeps extends Pick<AiDeps, 'overageReports' | 'clock' | 'logger'>, Pick<BillingDeps, 'provider' | 'subscriptions' | 'organizations'> {
  /** The billing meter's event name (APP_STRIPE_AI_METER_EVENT). */
  meterEventName: string;
  /** Spreads retry times (jitter). */
  random: () => number;
  /** The email outbox's policy: 12 attempts over at least 73 minutes, then dead-letter. */
  policy: DeliveryPolicy;
}
