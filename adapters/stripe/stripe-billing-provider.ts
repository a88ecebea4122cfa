import Stripe from 'stripe';
import type {
  BillingEvent,
  BillingProvider,
  CheckoutRequest,
  CustomerRequest,
  PortalRequest,
} from '../../core/billing/billing-provider.port';
import { DomainError, serviceUnavailable } from '../../core/shared/domain-error';
import { isWellFormedEvent, toBillingEvent } from './stripe-events';

/** The API version stripe 23.1.0 pins (node_modules/stripe/esm/apiVersion.js): requests and events speak it. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

export interface StripeBillingProviderOptions {
  /** APP_STRIPE_API_KEY (`sk_…`). */
  apiKey: string;
  /** APP_STRIPE_WEBHOOK_SECRET (`whsec_…`). */
  webhookSecret: string;
  /** APP_STRIPE_API_BASE_URL: another Stripe-compatible host (stripe-mock, a test double). Default: api.stripe.com. */
  apiBaseUrl?: string | undefined;
  /** Whole-request deadline. Default 10 s: a user is waiting for the redirect. */
  timeoutMs?: number;
}

/** Host, port and protocol for the SDK from a base URL such as `http://127.0.0.1:12111`. */
function hostOptions(apiBaseUrl: string | undefined) {
  if (!apiBaseUrl) return {};
  const url = new URL(apiBaseUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, protocol, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443 } as const;
}

/**
 * Customers, Checkout Sessions, billing-portal sessions and webhook verification through the
 * Stripe SDK. The SDK does not retry (`maxNetworkRetries: 0`): the caller is waiting, and the
 * idempotency keys make their own retry safe. The organization id travels as the session's
 * `client_reference_id` and as metadata on the customer, the session and the subscription, so
 * every later event names its organization.
 */
export class StripeBillingProvider implements BillingProvider {
  private readonly stripe: Stripe;

  constructor(private readonly options: StripeBillingProviderOptions) {
    this.stripe = new Stripe(options.apiKey, {
      apiVersion: STRIPE_API_VERSION,
      maxNetworkRetries: 0,
      timeout: options.timeoutMs ?? 10_000,
      telemetry: false,
      ...hostOptions(options.apiBaseUrl),
    });
  }

  async createCustomer(request: CustomerRequest): Promise<{ customerId: string }> {
    const customer = await call(() =>
      this.stripe.customers.create(
        { name: request.name, metadata: { organization_id: String(request.organizationId) } },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    return { customerId: customer.id };
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }> {
    const organizationId = String(request.organizationId);
    const session = await call(() =>
      this.stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          customer: request.customerId,
          line_items: [{ price: request.priceId, quantity: 1 }],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          client_reference_id: organizationId,
          metadata: { organization_id: organizationId, price_id: request.priceId },
          subscription_data: { metadata: { organization_id: organizationId } },
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
    return { url: session.url };
  }

  async createPortalSession(request: PortalRequest): Promise<{ url: string }> {
    const session = await call(() => this.stripe.billingPortal.sessions.create({ customer: request.customerId, return_url: request.returnUrl }));
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

async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw toDomainError(error);
  }
}

function toDomainError(error: unknown): unknown {
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
