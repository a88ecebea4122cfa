import { createHmac, timingSafeEqual } from 'node:crypto';
import type {
  BillingEvent,
  BillingProvider,
  CheckoutRequest,
  CheckoutSessionState,
  CustomerRequest,
  MeterEvent,
  PaymentCheckoutRequest,
  PaymentCompletedEvent,
  PortalRequest,
  ProviderPrice,
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
 * Stripe does. Each known price `price_X` sells the product `prod_X` (`findPrice`); `archivePrice`
 * stops selling one. Customer, checkout and portal requests are recorded; `failNext` queues an error
 * for the next call of any kind.
 *
 * Checkout sessions, subscription and payment alike, are kept and found by id (`sessionIdFrom`
 * names the session behind a URL the fake handed out); `completeSession` plays the customer finishing
 * the hosted page, and `paymentCompletedEvent` is the webhook event that would follow. Meter events
 * are counted once per identifier (`meterEvents`); every report is in `meterEventCalls`.
 */
export class FakeBillingProvider implements BillingProvider {
  static readonly PRICES: readonly string[] = ['price_basic', 'price_pro'];
  readonly customers: CustomerRequest[] = [];
  readonly checkouts: CheckoutRequest[] = [];
  readonly portals: PortalRequest[] = [];
  readonly paymentCheckouts: PaymentCheckoutRequest[] = [];
  /** Usage counted: one per identifier, the first report of it. */
  readonly meterEvents: MeterEvent[] = [];
  /** Every report that reached the provider, repeats and failures included. */
  readonly meterEventCalls: MeterEvent[] = [];
  /** Sessions by idempotency key: a replayed key answers the first session. */
  private readonly sessions = new Map<string, { url: string; id: string }>();
  private readonly sessionsById = new Map<string, CheckoutSessionState>();
  private readonly customersByKey = new Map<string, string>();
  private readonly archivedPrices = new Set<string>();
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

  async findPrice(priceId: string): Promise<ProviderPrice | null> {
    this.throwQueuedFailure();
    if (!this.prices.includes(priceId)) return null;
    return { id: priceId, productId: priceId.replace(/^price_/, 'prod_'), active: !this.archivedPrices.has(priceId) };
  }

  /** The price stays known but is no longer sold. */
  archivePrice(priceId: string): void {
    this.archivedPrices.add(priceId);
  }

  async createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }> {
    this.checkouts.push(request);
    this.throwQueuedFailure();
    if (!this.prices.includes(request.priceId)) {
      throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { priceId: 'The payment provider does not know this price' });
    }
    const session = this.replayed(request.idempotencyKey, 'subscription') ?? this.openSession(request, 'subscription', { packId: null, tokens: null });
    return { url: session.url };
  }

  async createPaymentCheckout(request: PaymentCheckoutRequest): Promise<{ url: string }> {
    this.paymentCheckouts.push(request);
    this.throwQueuedFailure();
    const session = this.replayed(request.idempotencyKey, 'payment') ?? this.openSession(request, 'payment', { packId: request.packId, tokens: request.tokens });
    return { url: session.url };
  }

  async findCheckoutSession(sessionId: string): Promise<CheckoutSessionState | null> {
    this.throwQueuedFailure();
    const session = this.sessionsById.get(sessionId);
    return session ? { ...session } : null;
  }

  async reportMeterEvent(event: MeterEvent): Promise<void> {
    this.meterEventCalls.push({ ...event });
    this.throwQueuedFailure();
    if (!this.meterEvents.some((counted) => counted.identifier === event.identifier)) this.meterEvents.push({ ...event });
  }

  /** The session id behind a checkout URL this fake handed out. */
  sessionIdFrom(url: string): string {
    const id = [...this.sessions.values()].find((session) => session.url === url)?.id;
    if (!id) throw new Error(`not a checkout URL of the fake billing provider: ${url}`);
    return id;
  }

  /** The customer finished the hosted page: paid (default), or with the payment still pending. */
  completeSession(sessionId: string, { paid = true }: { paid?: boolean } = {}): CheckoutSessionState {
    const session = this.sessionsById.get(sessionId);
    if (!session) throw new Error(`the fake billing provider has no checkout session ${sessionId}`);
    session.paid = paid;
    return { ...session };
  }

  /** The `payment-completed` event the provider would send for this session as it is now; sign it with `signed`. */
  paymentCompletedEvent(sessionId: string, options: { id?: string; occurredAt?: Date } = {}): PaymentCompletedEvent {
    const session = this.sessionsById.get(sessionId);
    if (!session || session.mode !== 'payment') throw new Error(`the fake billing provider has no payment session ${sessionId}`);
    const { organizationId, customerId, packId, tokens, paid } = session;
    const occurredAt = new Date(Math.floor((options.occurredAt ?? new Date()).getTime() / 1000) * 1000);
    return { id: options.id ?? `evt_fake_${sessionId}`, kind: 'payment-completed', occurredAt, organizationId, customerId, checkoutSessionId: sessionId, packId, tokens, paid };
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

  /** The first session for a replayed key; a key reused for the other kind of checkout is refused, as Stripe refuses changed parameters. */
  private replayed(idempotencyKey: string, mode: 'subscription' | 'payment'): { url: string; id: string } | undefined {
    const session = this.sessions.get(idempotencyKey);
    if (session && this.sessionsById.get(session.id)?.mode !== mode) throw new Error(`idempotency key ${idempotencyKey} was first used for another kind of checkout`);
    return session;
  }

  private openSession(
    request: CheckoutRequest | PaymentCheckoutRequest,
    mode: 'subscription' | 'payment',
    pack: Pick<CheckoutSessionState, 'packId' | 'tokens'>,
  ): { url: string; id: string } {
    const id = `cs_fake_${this.sessionsById.size + 1}`;
    const { organizationId, customerId, idempotencyKey } = request;
    this.sessionsById.set(id, { id, organizationId, customerId, mode, paid: false, ...pack });
    const session = { id, url: `https://pay.example.test/${organizationId}/${idempotencyKey}` };
    this.sessions.set(idempotencyKey, session);
    return session;
  }

  private throwQueuedFailure(): void {
    const failure = this.nextFailure;
    this.nextFailure = undefined;
    if (failure) throw failure;
  }
}
