import type { BillingEvent, BillingProvider, CheckoutRequest } from '../../core/billing/billing-provider.port';
import { DomainError } from '../../core/shared/domain-error';

/**
 * A BillingProvider for core unit tests. Webhook bodies are BillingEvents as JSON, "signed" by
 * the header `FakeBillingProvider.SIGNATURE`; checkout requests are recorded and answered with a
 * URL naming the organization, or with the error queued by `failNextCheckout`.
 */
export class FakeBillingProvider implements BillingProvider {
  static readonly SIGNATURE = 'fake-valid-signature';
  readonly checkouts: CheckoutRequest[] = [];
  private nextFailure: Error | undefined;

  failNextCheckout(error: Error): void {
    this.nextFailure = error;
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }> {
    this.checkouts.push(request);
    const failure = this.nextFailure;
    this.nextFailure = undefined;
    if (failure) throw failure;
    return { url: `https://pay.example.test/${request.organizationId}/${request.idempotencyKey}` };
  }

  parseWebhook(rawBody: string, signatureHeader: string): BillingEvent {
    if (signatureHeader !== FakeBillingProvider.SIGNATURE) throw new DomainError('INVALID_WEBHOOK_SIGNATURE', 'Bad signature');
    return JSON.parse(rawBody, (key, value: unknown) =>
      (key === 'occurredAt' || key === 'currentPeriodEnd') && typeof value === 'string' ? new Date(value) : value,
    ) as BillingEvent;
  }

  static body(event: BillingEvent): string {
    return JSON.stringify(event);
  }
}
