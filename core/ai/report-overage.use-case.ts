import { BillingCustomers } from '../billing/billing-customer';
import { DomainError } from '../shared/domain-error';
import { deliverDue, type DeliveryReport } from '../shared/leased-delivery';
import type { OverageReportingDeps } from './ai-deps';

/**
 * Reports the overage that settled calls charged to the billing provider, as meter events whose
 * identifier is the usage record's id: a report sent twice (a lost answer, a lease that ran out)
 * is counted once by the provider. Delivered by the shared leased delivery
 * (core/shared/leased-delivery.ts): a provider outage (SERVICE_UNAVAILABLE) is retried with
 * backoff; any other failure and reports out of attempts are dead-lettered and logged for an
 * operator. The organization's customer is created on first need, as for checkout.
 */
export class ReportOverage {
  private readonly customers: BillingCustomers;

  constructor(
    private readonly deps: Pick<
      OverageReportingDeps,
      'overageReports' | 'clock' | 'logger' | 'provider' | 'subscriptions' | 'organizations' | 'meterEventName' | 'random' | 'policy'
    >,
  ) {
    this.customers = new BillingCustomers(deps);
  }

  execute(): Promise<DeliveryReport> {
    const { overageReports, provider, clock, logger, random, policy, meterEventName } = this.deps;
    return deliverDue({
      store: overageReports,
      clock,
      logger,
      random,
      policy,
      keyOf: (report) => report.usageId,
      send: async (report) =>
        provider.reportMeterEvent({
          eventName: meterEventName,
          customerId: await this.customers.customerOf(report.organizationId),
          value: report.tokens,
          identifier: String(report.usageId),
          timestamp: report.occurredAt,
        }),
      kindOf: (failure) => (failure instanceof DomainError && failure.code === 'SERVICE_UNAVAILABLE' ? 'transient' : 'permanent'),
      fieldsOf: (report) => ({ usage_id: report.usageId, organization_id: report.organizationId, tokens: report.tokens }),
      messages: { sent: 'AI overage reported', retried: 'AI overage report failed, will retry', dead: 'AI overage report dead-lettered: bill it by hand' },
    });
  }
}
