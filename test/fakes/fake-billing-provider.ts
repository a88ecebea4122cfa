import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  BillingEvent,
  BillingProvider,
  CheckoutRequest,
  CustomerRequest,
  PortalRequest,
} from '../../core/billing/billing-provider.port';
import { DomainError } from '../../core/shared/domain-error';

const SECRET = 'fake-webhook-secret';
/** Stripe's default: a signature older than five minutes is a replay. */
const TOLERANCE_SECONDS = 300;
const DATE_FIELDS = new Set(['occurredAt', 'currentPeriodStart', 'currentPeriodEnd']);

const hmac = (secret: string, timestamp: number, body: string) => createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');

const badSignature = () => new DomainError('INVALID_WEBHOOK_SIGNATURE', 'The signature header is missing or does not match the body');

/**
 * A BillingProvider for core unit tests, held to the same contract as the Stripe adapter
 * (test/contracts/billing-provider.contract.ts). Webhook bodies are BillingEvents as JSON, signed
 * as Stripe signs: `t=<unix seconds>,v1=<HMAC-SHA256 of "t.body">` (`FakeBillingProvider.signed`
 * makes one). Checkouts know a price list and answer a replayed idempotency key with the first
 * session; a customer request with an idempotency key seen before returns the first customer, as
 * Stripe does. Customer, checkout and portal requests are recorded; `failNext` queues an error
 * for the next call of any kind.
 */
export class FakeBillingProvider implements BillingProvider {
  static readonly PRICES: readonly string[] = ['price_basic', 'price_pro'];
  readonly customers: CustomerRequest[] = [];
  readonly checkouts: CheckoutRequest[] = [];
  readonly portals: PortalRequest[] = [];
  private readonly sessions = new Map<string, { url: string }>();
  private readonly customersByKey = new Map<string, string>();
  private nextFailure: Error | undefined;

  constructor(private readonly prices: readonly string[] = FakeBillingProvider.PRICES) {}

  failNext(error: Error): void {
    this.nextFailure = error;
  }

  failNextCheckout(error: Error): void {
    this.failNext(error);
  }

  /** Distinct customers created so far. */
  get customerCount(): number {
    return new Set(this.customersByKey.values()).size;
  }

  async createCustomer(request: CustomerRequest): Promise<{ customerId: string }> {
    this.customers.push(request);
    this.throwQueuedFailure();
    const customerId = this.customersByKey.get(request.idempotencyKey) ?? `cus_fake_${this.customersByKey.size + 1}`;
    this.customersByKey.set(request.idempotencyKey, customerId);
    return { customerId };
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }> {
    this.checkouts.push(request);
    this.throwQueuedFailure();
    if (!this.prices.includes(request.priceId)) {
      throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { priceId: 'The payment provider does not know this price' });
    }
    const session = this.sessions.get(request.idempotencyKey) ?? { url: `https://pay.example.test/${request.organizationId}/${request.idempotencyKey}` };
    this.sessions.set(request.idempotencyKey, session);
    return { ...session };
  }

  async createPortalSession(request: PortalRequest): Promise<{ url: string }> {
    this.portals.push(request);
    this.throwQueuedFailure();
    return { url: `https://portal.example.test/${request.customerId}` };
  }

  parseWebhook(rawBody: string, signatureHeader: string): BillingEvent {
    const fields = new Map(signatureHeader.split(',').map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)]));
    const timestamp = Number(fields.get('t'));
    const given = Buffer.from(fields.get('v1') ?? '', 'hex');
    if (!Number.isInteger(timestamp)) throw badSignature();
    const expected = Buffer.from(hmac(SECRET, timestamp, rawBody), 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw badSignature();
    if (Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) throw badSignature();
    return JSON.parse(rawBody, (key, value: unknown) => (DATE_FIELDS.has(key) && typeof value === 'string' ? new Date(value) : value)) as BillingEvent;
  }

  /** A webhook body for `event` and its signature header, signed at `at` (default now) with `secret` (default the fake's). */
  static signed(event: BillingEvent, options: { at?: Date; secret?: string } = {}): { rawBody: string; signature: string } {
    const rawBody = JSON.stringify(event);
    const timestamp = Math.floor((options.at?.getTime() ?? Date.now()) / 1000);
    return { rawBody, signature: `t=${timestamp},v1=${hmac(options.secret ?? SECRET, timestamp, rawBody)}` };
  }

  private throwQueuedFailure(): void {
    const failure = this.nextFailure;
    this.nextFailure = undefined;
    if (failure) throw failure;
  }
}
