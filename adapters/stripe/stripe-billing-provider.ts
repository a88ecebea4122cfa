import Stripe from 'stripe';
import type {
  BillingEvent,
  BillingProvider,
  CheckoutRequest,
  CheckoutSessionState,
  CustomerRequest,
  MeterEvent,
  PaymentCheckoutRequest,
  PortalRequest,
  ProviderPrice,
} from '../../core/billing/billing-provider.port';
import { DomainError, serviceUnavailable } from '../../core/shared/domain-error';
import { isWellFormedEvent, toBillingEvent, toCheckoutSessionState } from './stripe-events';

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
 * Stripe object ids are letters, digits and underscores. Anything else cannot name a session or a
 * price, and must not reach the URL: an empty id would ask for the list instead.
 */
const STRIPE_ID = /^\w{1,255}$/;

/**
 * Customers, Checkout Sessions (subscriptions and one-time credit packs), billing-portal sessions,
 * meter events and webhook verification through the Stripe SDK. The SDK does not retry
 * (`maxNetworkRetries: 0`): the caller is waiting, and the idempotency keys (meter events: their
 * identifiers) make their own retry safe. The organization id travels as the session's
 * `client_reference_id` and as metadata on the customer, the session, the subscription and the
 * payment, so every later event names its organization.
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

  async findPrice(priceId: string): Promise<ProviderPrice | null> {
    if (!STRIPE_ID.test(priceId)) return null;
    try {
      const price = await this.stripe.prices.retrieve(priceId);
      const productId = typeof price.product === 'string' ? price.product : price.product.id;
      return { id: price.id, productId, active: price.active };
    } catch (error) {
      if (isUnknownId(error)) return null;
      throw toDomainError(error);
    }
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
      refusedPrice,
    );
    return { url: urlOf(session) };
  }

  async createPaymentCheckout(request: PaymentCheckoutRequest): Promise<{ url: string }> {
    const organizationId = String(request.organizationId);
    // On the payment too, so the charge in Stripe's dashboard says what it bought and for whom.
    const metadata = { organization_id: organizationId, pack_id: request.packId, tokens: String(request.tokens) };
    const { name, amountCents, currency } = request.item;
    const session = await call(() =>
      this.stripe.checkout.sessions.create(
        {
          mode: 'payment',
          customer: request.customerId,
          line_items: [{ price_data: { currency, unit_amount: amountCents, product_data: { name } }, quantity: 1 }],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          client_reference_id: organizationId,
          metadata,
          payment_intent_data: { metadata },
        },
        { idempotencyKey: request.idempotencyKey },
      ),
    );
    return { url: urlOf(session) };
  }

  async findCheckoutSession(sessionId: string): Promise<CheckoutSessionState | null> {
    if (!STRIPE_ID.test(sessionId)) return null;
    try {
      return toCheckoutSessionState(await this.stripe.checkout.sessions.retrieve(sessionId));
    } catch (error) {
      if (isUnknownId(error)) return null;
      throw toDomainError(error);
    }
  }

  async reportMeterEvent(event: MeterEvent): Promise<void> {
    try {
      await this.stripe.billing.meterEvents.create({
        event_name: event.eventName,
        payload: { stripe_customer_id: event.customerId, value: String(event.value) },
        identifier: event.identifier,
        timestamp: Math.floor(event.timestamp.getTime() / 1000),
      });
    } catch (error) {
      // Stripe refuses an identifier it already counted instead of answering it again: the usage is recorded.
      if (isDuplicateMeterEvent(error)) return;
      throw toDomainError(error);
    }
  }

  async createPortalSession(request: PortalRequest): Promise<{ url: string }> {
    const session = await call(() => this.stripe.billingPortal.sessions.create({ customer: request.customerId, return_url: request.returnUrl }));
    return { url: session.url };
  }

  parseWebhook(rawBody: string, signatureHeader: string): BillingEvent {
    // The SDK throws plain errors (not its verification error) on some malformed headers, such as
    // an empty `v1=`: a header of the wrong shape is refused before it reaches the SDK.
    if (!isSignatureHeader(signatureHeader)) throw badSignature();
    let event: Stripe.Event;
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, signatureHeader, this.options.webhookSecret);
    } catch (error) {
      // Verified bytes that are not JSON: the sender's bug, not a forgery.
      if (error instanceof SyntaxError) throw malformedEvent();
      // The SDK only verifies and parses here: whatever else it throws is about the header.
      throw badSignature();
    }
    if (!isWellFormedEvent(event)) throw malformedEvent();
    return toBillingEvent(event);
  }
}

const badSignature = () => new DomainError('INVALID_WEBHOOK_SIGNATURE', 'The Stripe-Signature header is missing or does not match the body');
const malformedEvent = () => new DomainError('INVALID_WEBHOOK_EVENT', 'The event is signed but not a Stripe event this service can read');

/**
 * Stripe's header: comma-separated `key=value` pairs, one `t=<unix seconds>`, and at least one
 * `v1=<64 hex digits>` (HMAC-SHA256); other schemes (`v0`) may be present and are not checked.
 */
function isSignatureHeader(header: string): boolean {
  const pairs = header.split(',').map((part) => /^([a-z]\w{0,15})=([^=,]+)$/.exec(part));
  if (pairs.some((pair) => pair === null)) return false;
  const values = (key: string) => pairs.filter((pair) => pair![1] === key).map((pair) => pair![2]!);
  const timestamps = values('t');
  const signatures = values('v1');
  return timestamps.length === 1 && /^\d{1,12}$/.test(timestamps[0]!) && signatures.length > 0 && signatures.every((value) => /^[0-9a-f]{64}$/.test(value));
}

function urlOf(session: Stripe.Checkout.Session): string {
  if (!session.url) throw new Error('Stripe returned a checkout session without a URL');
  return session.url;
}

/** `refusal` turns a refusal the caller can act on into a DomainError; anything else is handled as by toDomainError. */
async function call<T>(request: () => Promise<T>, refusal: (error: unknown) => unknown = toDomainError): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw refusal(error);
  }
}

function toDomainError(error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  const status = error.statusCode;
  // No answer at all, throttled, or failing on Stripe's side: an outage for our caller, not a bug.
  if (error instanceof Stripe.errors.StripeConnectionError || status === undefined || status === 429 || status >= 500) {
    return serviceUnavailable('The payment provider is unavailable, try again shortly', 30);
  }
  // Anything else (a bad API key, a request this adapter built wrongly) is ours to fix: a logged 500.
  return error;
}

/** A subscription checkout names a price that must exist at Stripe: its refusal is the caller's input error. */
function refusedPrice(error: unknown): unknown {
  if (error instanceof Stripe.errors.StripeInvalidRequestError && error.param?.includes('price')) {
    return new DomainError('VALIDATION_ERROR', 'The request is invalid', { priceId: 'The payment provider does not know this price' });
  }
  return toDomainError(error);
}

/**
 * Stripe answers an id it has no object for with 404 `resource_missing` ("No such
 * checkout.session", "No such price"), and one it cannot parse with "Invalid … id" (400 or 404).
 * The request carries nothing but the id, so either refusal is about the id.
 */
function isUnknownId(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 404 || error.statusCode === 400);
}

/**
 * A resent identifier (within Stripe's window of at least 24 hours) is refused with 400. The v2
 * API documents the code `duplicate_meter_event`; the v1 endpoint has been seen to send only the
 * message "An event already exists with identifier …", so either is recognised.
 */
function isDuplicateMeterEvent(error: unknown): boolean {
  if (!(error instanceof Stripe.errors.StripeInvalidRequestError) || error.statusCode !== 400) return false;
  return error.code === 'duplicate_meter_event' || /event already exists with identifier/i.test(error.message);
}
