import Stripe from 'stripe';
import type { BillingEvent, BillingProvider, CheckoutRequest } from '../../core/billing/billing-provider.port';
import { DomainError, serviceUnavailable } from '../../core/shared/domain-error';
import { isWellFormedEvent, toBillingEvent } from './stripe-events';

/** The API version stripe 23.1.0 pins (node_modules/stripe/esm/apiVersion.js): requests and events speak it. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export interface StripeBillingProviderOptions {
  /** APP_STRIPE_API_KEY (`sk_…`). */
  apiKey: string;
  /** APP_STRIPE_WEBHOOK_SECRET (`whsec_…`). */
  webhookSecret: string;
  /** Host, port and protocol of the API; tests point them at a fake. Default: api.stripe.com. */
  host?: string;
  port?: number;
  protocol?: 'http' | 'https';
  /** Whole-request deadline. Default 10 s: a user is waiting for the redirect. */
  timeoutMs?: number;
}

/**
 * Checkout Sessions and webhook verification through the Stripe SDK. The SDK does not retry
 * (`maxNetworkRetries: 0`): the caller is waiting, and the idempotency key makes their own retry
 * safe. The organization id travels as the session's `client_reference_id` and as metadata on
 * both the session and the subscription, so every later event names its organization.
 */
export class StripeBillingProvider implements BillingProvider {
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeBillingProviderOptions) {
    this.stripe = new Stripe(options.apiKey, {
      apiVersion: STRIPE_API_VERSION,
      maxNetworkRetries: 0,
      timeout: options.timeoutMs ?? 10_000,
      telemetry: false,
      ...(options.host ? { host: options.host } : {}),
      ...(options.port ? { port: options.port } : {}),
      ...(options.protocol ? { protocol: options.protocol } : {}),
    });
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }> {
    const organizationId = String(request.organizationId);
    let session: Stripe.Checkout.Session;
    try {
      session = await this.stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [{ price: request.priceId, quantity: 1 }],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          client_reference_id: organizationId,
          customer_email: request.customerEmail,
          metadata: { organization_id: organizationId, price_id: request.priceId },
          subscription_data: { metadata: { organization_id: organizationId } },
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      throw toCheckoutError(error);
    }
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return { url: session.url };
  }

  parseWebhook(rawBody: string, signatureHeader: string): BillingEvent {
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, this.options.webhookSecret);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
        throw new DomainError('INVALID_WEBHOOK_SIGNATURE', 'The Stripe-Signature header is missing or does not match the body');
      }
      throw error;
    }
    if (!isWellFormedEvent(event)) throw new DomainError('INVALID_WEBHOOK_EVENT', 'The event is signed but not a Stripe event this service can read');
    return toBillingEvent(event);
  }
}

function toCheckoutError(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  const status = error.statusCode;
  // No answer at all, throttled, or failing on Stripe's side: an outage for our caller, not a bug.
  if (error instanceof Stripe.errors.StripeConnectionError || status === undefined || status === 429 || status >= 500) {
    return serviceUnavailable('The payment provider is unavailable, try again shortly', 30);
  }
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.param?.includes('price')) {
    return new DomainError('VALIDATION_ERROR', 'The request is invalid', { priceId: 'The payment provider does not know this price' });
  }
  // Anything else (a bad API key, a request this adapter built wrongly) is ours to fix: a logged 500.
  return error;
}
