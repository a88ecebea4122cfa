import { BillingCustomers } from '../billing/billing-customer';
import type { BillingDeps } from '../billing/billing-deps';
import type { DeliveryPolicy } from '../email/deliver-due-emails.use-case';
import { DomainError } from '../shared/domain-error';
import { equalJitterBackoffMs } from '../shared/retry-backoff';
import type { AiDeps } from './ai-deps';
import type { DueOverageReport } from './overage-report.port';

export interface ReportOverageDeps extends Pick<AiDeps, 'overageReports' | 'clock' | 'logger'>, Pick<BillingDeps, 'provider' | 'subscriptions' | 'organizations'> {
  /** The billing meter's event name (APP_STRIPE_AI_METER_EVENT). */
  meterEventName: string;
  random: () => number;
  /** The email outbox's policy: 12 attempts over at least 73 minutes, then dead-letter. */
  policy: DeliveryPolicy;
}

export interface OverageReportOutcome {
  sent: number;
  retried: number;
  dead: number;
}

/**
 * Reports the overage that settled calls charged to the billing provider, as meter events whose
 * identifier is the usage record's id: a report sent twice (a lost answer, a lease that ran out)
 * is counted once by the provider. Transient failures are retried with backoff; permanent ones
 * and reports out of attempts are dead-lettered and logged for an operator. The organization's
 * customer is created on first need, as for checkout.
 */
export class ReportOverage {
  private readonly customers: BillingCustomers;

  constructor(private readonly deps: ReportOverageDeps) {
    this.customers = new BillingCustomers(deps);
  }

  async execute(): Promise<OverageReportOutcome> {
    const { overageReports, clock, policy } = this.deps;
    const now = clock.now();
    const due = await overageReports.claimDue(now, new Date(now.getTime() + policy.leaseMs), policy.batchSize);
    const outcome: OverageReportOutcome = { sent: 0, retried: 0, dead: 0 };
    const results = await Promise.allSettled(due.map((report) => this.report(report)));
    for (const result of results) {
      if (result.status === 'rejected') throw result.reason;
      outcome[result.value] += 1;
    }
    return outcome;
  }

  private async report(report: DueOverageReport): Promise<keyof OverageReportOutcome> {
    const { overageReports, provider, clock, logger, policy } = this.deps;
    const fields = { usage_id: report.usageId, organization_id: report.organizationId, tokens: report.tokens, attempt: report.attempts };
    let failure: unknown;
    try {
      const customerId = await this.customers.customerOf(report.organizationId);
      await provider.reportMeterEvent({
        eventName: this.deps.meterEventName,
        customerId,
        value: report.tokens,
        identifier: String(report.usageId),
        timestamp: report.occurredAt,
      });
    } catch (error) {
      failure = error;
    }
    if (failure === undefined) {
      await overageReports.markSent(report.usageId, clock.now());
      logger.info(fields, 'AI overage reported');
      return 'sent';
    }
    const transient = failure instanceof DomainError && failure.code === 'SERVICE_UNAVAILABLE';
    const reason = failure instanceof Error ? failure.message : String(failure);
    if (!transient || report.attempts >= policy.maxAttempts) {
      await overageReports.markDead(report.usageId, reason);
      logger.error({ ...fields, reason }, 'AI overage report dead-lettered: bill it by hand');
      return 'dead';
    }
    const delay = equalJitterBackoffMs(policy, report.attempts, this.deps.random);
    await overageReports.scheduleRetry(report.usageId, new Date(clock.now().getTime() + delay), reason);
    logger.warn({ ...fields, reason, retry_in_ms: delay }, 'AI overage report failed, will retry');
    return 'retried';
  }
}
