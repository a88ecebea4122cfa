import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckoutRequest, MeterEvent, PaymentCheckoutRequest } from '../../core/billing/billing-provider.port';
import { DomainError } from '../../core/shared/domain-error';
import { checkoutCompleted, NOW_SECONDS, otherEvent, signed, subscriptionEvent } from '../../test/builders/stripe-events';
import { startStripeFake, type StripeFake } from '../../test/fakes/stripe-fake';
import { STRIPE_API_VERSION, StripeBillingProvider } from './stripe-billing-provider';

const API_KEY = 'sk_test_adapter';
const SECRET = 'whsec_adapter_secret';

const baseRequest = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  organizationId: 42,
  priceId: 'price_basic',
  customerId: 'cus_placeholder',
  successUrl: 'http://localhost:5173/billing?checkout=success',
  cancelUrl: 'http://localhost:5173/billing?checkout=cancelled',
  idempotencyKey: `checkout-${Math.random()}`,
  ...overrides,
});

const paymentRequest = (overrides: Partial<PaymentCheckoutRequest> = {}): PaymentCheckoutRequest => ({
  organizationId: 42,
  customerId: 'cus_placeholder',
  item: { name: '5M AI tokens', amountCents: 1_900, currency: 'eur' },
  packId: 'pack_5m',
  tokens: 5_000_000,
  successUrl: 'http://localhost:5173/billing?pack=success',
  cancelUrl: 'http://localhost:5173/billing?pack=cancelled',
  idempotencyKey: `pack-${Math.random()}`,
  ...overrides,
});

let usage = 0;
const meterEvent = (overrides: Partial<MeterEvent> = {}): MeterEvent => {
  usage += 1;
  return { eventName: 'ai_tokens', customerId: 'cus_metered', value: 1_500, identifier: `usage-${process.pid}-${usage}`, timestamp: new Date(Date.now() - 60_000), ...overrides };
};

/** A port nothing listens on: connection refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// What every BillingProvider does (idempotent checkouts, unknown prices, outages, reading and
// verifying webhooks) is in test/contracts/billing-provider.contract.ts; this file keeps what is
// Stripe's own: the exact request, its error classes, and Stripe's event shapes.
describe('StripeBillingProvider against the Stripe fake', () => {
  let fake: StripeFake;
  let provider: StripeBillingProvider;
  let customerId: string;
  const request = (overrides: Partial<CheckoutRequest> = {}) => baseRequest({ customerId, ...overrides });

  beforeAll(async () => {
    fake = await startStripeFake({ apiKey: API_KEY });
    provider = new StripeBillingProvider({ apiKey: API_KEY, webhookSecret: SECRET, apiBaseUrl: fake.url, timeoutMs: 5_000 });
    customerId = (await provider.createCustomer({ organizationId: 42, name: 'Acme', idempotencyKey: 'customer-42' })).customerId;
  });
  afterAll(async () => fake?.close());

  it('creates a subscription checkout for the organization, pinned to the SDK API version, with the idempotency key', async () => {
    const before = fake.checkouts.length;
    const { url } = await provider.createCheckoutSession(request({ idempotencyKey: 'checkout-abc' }));
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(fake.protocolErrors).toEqual([]);
    expect(fake.checkouts.slice(before)).toEqual([
      {
        idempotencyKey: 'checkout-abc',
        stripeVersion: STRIPE_API_VERSION,
        form: {
          mode: 'subscription',
          'line_items[0][price]': 'price_basic',
          'line_items[0][quantity]': '1',
          success_url: 'http://localhost:5173/billing?checkout=success',
          cancel_url: 'http://localhost:5173/billing?checkout=cancelled',
          client_reference_id: '42',
          customer: customerId,
          'metadata[organization_id]': '42',
          'metadata[price_id]': 'price_basic',
          'subscription_data[metadata][organization_id]': '42',
        },
      },
    ]);
  });

  it('creates a customer once per idempotency key, named after the organization, with its id in the metadata', async () => {
    const first = await provider.createCustomer({ organizationId: 7, name: 'Seven Ltd', idempotencyKey: 'customer-7' });
    const again = await provider.createCustomer({ organizationId: 7, name: 'Seven Ltd', idempotencyKey: 'customer-7' });
    expect(again).toEqual(first);
    expect(fake.customers.get(first.customerId)).toMatchObject({ name: 'Seven Ltd', metadata: { organization_id: '7' } });
    expect(fake.customerCalls.at(-1)).toMatchObject({ idempotencyKey: 'customer-7', stripeVersion: STRIPE_API_VERSION });
    expect(fake.protocolErrors).toEqual([]);
  });

  it('opens a billing portal session for the customer with the return URL', async () => {
    const { url } = await provider.createPortalSession({ customerId, returnUrl: 'http://localhost:5173/billing' });
    expect(url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    expect(fake.portalCalls.at(-1)?.form).toEqual({ customer: customerId, return_url: 'http://localhost:5173/billing' });
    fake.failNext('server-error');
    await expect(provider.createPortalSession({ customerId, returnUrl: 'http://x/billing' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('turns a refused price into VALIDATION_ERROR on body.price_id', async () => {
    fake.failNext('param-error');
    await expect(provider.createCheckoutSession(request())).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { priceId: expect.any(String) },
    });
  });

  it('turns a Stripe 500 into SERVICE_UNAVAILABLE after exactly one attempt', async () => {
    fake.failNext('server-error');
    const before = fake.checkouts.length;
    await expect(provider.createCheckoutSession(request())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retry_after: 30 } });
    expect(fake.checkouts.length - before).toBe(1);
  });

  it('lets any other refusal through as an unexpected error (a logged 500, not a guess)', async () => {
    fake.failNext('card-error');
    const failure = provider.createCheckoutSession(request());
    await expect(failure).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);
    await expect(failure).rejects.not.toBeInstanceOf(DomainError);
  });

  it('turns an unreachable Stripe into SERVICE_UNAVAILABLE', async () => {
    const offline = new StripeBillingProvider({ apiKey: API_KEY, webhookSecret: SECRET, apiBaseUrl: `http://127.0.0.1:${await closedPort()}`, timeoutMs: 2_000 });
    await expect(offline.createCheckoutSession(request())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(offline.createCustomer({ organizationId: 1, name: 'x', idempotencyKey: 'k' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(offline.createPaymentCheckout(paymentRequest({ customerId }))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(offline.findCheckoutSession('cs_test_1')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    await expect(offline.reportMeterEvent(meterEvent())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('StripeBillingProvider credit-pack checkouts against the Stripe fake', () => {
  let fake: StripeFake;
  let provider: StripeBillingProvider;
  let customerId: string;
  const request = (overrides: Partial<PaymentCheckoutRequest> = {}) => paymentRequest({ customerId, ...overrides });

  beforeAll(async () => {
    fake = await startStripeFake({ apiKey: API_KEY });
    provider = new StripeBillingProvider({ apiKey: API_KEY, webhookSecret: SECRET, apiBaseUrl: fake.url, timeoutMs: 5_000 });
    customerId = (await provider.createCustomer({ organizationId: 42, name: 'Acme', idempotencyKey: 'customer-42' })).customerId;
  });
  afterAll(async () => fake?.close());

  it('creates a payment checkout priced inline, with the pack on the session and on the payment', async () => {
    const before = fake.checkouts.length;
    const { url } = await provider.createPaymentCheckout(request({ idempotencyKey: 'pack-abc' }));
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(fake.protocolErrors).toEqual([]);
    expect(fake.checkouts.slice(before)).toEqual([
      {
        idempotencyKey: 'pack-abc',
        stripeVersion: STRIPE_API_VERSION,
        form: {
          mode: 'payment',
          customer: customerId,
          'line_items[0][price_data][currency]': 'eur',
          'line_items[0][price_data][unit_amount]': '1900',
          'line_items[0][price_data][product_data][name]': '5M AI tokens',
          'line_items[0][quantity]': '1',
          success_url: 'http://localhost:5173/billing?pack=success',
          cancel_url: 'http://localhost:5173/billing?pack=cancelled',
          client_reference_id: '42',
          'metadata[organization_id]': '42',
          'metadata[pack_id]': 'pack_5m',
          'metadata[tokens]': '5000000',
          'payment_intent_data[metadata][organization_id]': '42',
          'payment_intent_data[metadata][pack_id]': 'pack_5m',
          'payment_intent_data[metadata][tokens]': '5000000',
        },
      },
    ]);
    expect(fake.session(fake.sessionIdFrom(url))).toMatchObject({ mode: 'payment', amount_total: 1_900, currency: 'eur', payment_status: 'unpaid' });
  });

  it('lets a refusal of the inline price through as an unexpected error, never as an unknown price id', async () => {
    const failure = provider.createPaymentCheckout(request({ item: { name: '5M AI tokens', amountCents: 1_900, currency: 'EURO' } }));
    await expect(failure).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(failure).rejects.not.toBeInstanceOf(DomainError);
  });

  it('reads a session back as paid once the customer paid, and as unpaid while the payment is pending', async () => {
    const id = fake.sessionIdFrom((await provider.createPaymentCheckout(request())).url);
    fake.completeSession(id, { paid: false });
    await expect(provider.findCheckoutSession(id)).resolves.toMatchObject({ id, paid: false });
    fake.completeSession(id, { paid: true });
    await expect(provider.findCheckoutSession(id)).resolves.toEqual({ id, organizationId: 42, customerId, mode: 'payment', paid: true, packId: 'pack_5m', tokens: 5_000_000 });
  });

  it('finds no session for an id Stripe has none for (404) or cannot read (400), and sends no request for one that cannot be an id', async () => {
    const before = fake.sessionLookups.length;
    await expect(provider.findCheckoutSession('cs_test_unknown')).resolves.toBeNull();
    await expect(provider.findCheckoutSession('foo')).resolves.toBeNull();
    expect(fake.sessionLookups.slice(before)).toEqual(['cs_test_unknown', 'foo']);

    for (const id of ['', '.', '../customers', 'cs_test_1?expand[]=customer', 'x'.repeat(256)]) {
      await expect(provider.findCheckoutSession(id), JSON.stringify(id)).resolves.toBeNull();
    }
    expect(fake.sessionLookups.length - before).toBe(2);
    expect(fake.protocolErrors).toEqual([]);
  });

  it('lets any other refusal of a lookup through, so a bad key is not read as a missing session', async () => {
    fake.failNext('card-error');
    await expect(provider.findCheckoutSession('cs_test_unknown')).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);
    fake.failNext('rate-limited');
    await expect(provider.findCheckoutSession('cs_test_unknown')).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('signs a completed-session webhook the adapter reads back with the pack, its tokens and the payment status', async () => {
    const id = fake.sessionIdFrom((await provider.createPaymentCheckout(request())).url);
    expect(() => fake.completedSessionWebhook(id, SECRET)).toThrow(/not complete/);
    const pending = fake.completeSession(id, { paid: false });
    const first = fake.completedSessionWebhook(id, SECRET, { eventId: 'evt_pack_done' });
    expect(provider.parseWebhook(first.payload, first.signature)).toMatchObject({
      id: 'evt_pack_done',
      kind: 'payment-completed',
      checkoutSessionId: id,
      organizationId: 42,
      customerId: pending.customer,
      packId: 'pack_5m',
      tokens: 5_000_000,
      paid: false,
    });
    fake.completeSession(id, { paid: true });
    const later = fake.completedSessionWebhook(id, SECRET, { eventId: 'evt_pack_paid', type: 'checkout.session.async_payment_succeeded' });
    expect(provider.parseWebhook(later.payload, later.signature)).toMatchObject({ id: 'evt_pack_paid', kind: 'payment-completed', checkoutSessionId: id, paid: true });
  });
});

describe('StripeBillingProvider meter events against the Stripe fake', () => {
  let fake: StripeFake;
  let provider: StripeBillingProvider;

  beforeAll(async () => {
    fake = await startStripeFake({ apiKey: API_KEY });
    provider = new StripeBillingProvider({ apiKey: API_KEY, webhookSecret: SECRET, apiBaseUrl: fake.url, timeoutMs: 5_000 });
  });
  afterAll(async () => fake?.close());

  it('sends the event name, the customer, the value as a string, the identifier and the time in seconds', async () => {
    // A minute ago plus 750 ms: the fraction is cut, not rounded up.
    const seconds = Math.floor(Date.now() / 1000) - 60;
    const event = meterEvent({ value: 1_500, timestamp: new Date(seconds * 1000 + 750) });
    await provider.reportMeterEvent(event);
    expect(fake.protocolErrors).toEqual([]);
    expect(fake.meterEventCalls.at(-1)).toEqual({
      // The SDK's own random key: the identifier is what makes a resend count once, whatever else changed.
      idempotencyKey: expect.stringMatching(/^stripe-node-retry-/),
      stripeVersion: STRIPE_API_VERSION,
      form: {
        event_name: 'ai_tokens',
        'payload[stripe_customer_id]': 'cus_metered',
        'payload[value]': '1500',
        identifier: event.identifier,
        timestamp: String(seconds),
      },
    });
  });

  it('takes Stripe refusing a resent identifier, in either of its forms, as the success it is', async () => {
    const event = meterEvent();
    await provider.reportMeterEvent(event);
    const calls = fake.meterEventCalls.length;
    await expect(provider.reportMeterEvent(event)).resolves.toBeUndefined();
    expect(fake.meterEventCalls.length - calls).toBe(1);
    expect(fake.meterEvents.filter((counted) => counted.identifier === event.identifier)).toHaveLength(1);

    fake.failNext('duplicate-meter-event');
    await expect(provider.reportMeterEvent(event)).resolves.toBeUndefined();
  });

  it.each([
    ['a Stripe 500', 'server-error'],
    ['throttling (429)', 'rate-limited'],
  ] as const)('turns %s into SERVICE_UNAVAILABLE, to be retried later', async (_, failure) => {
    fake.failNext(failure);
    await expect(provider.reportMeterEvent(meterEvent())).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('lets a permanent refusal through as it is: retrying cannot fix it', async () => {
    const stale = provider.reportMeterEvent(meterEvent({ timestamp: new Date(Date.now() - 40 * 86_400_000) }));
    await expect(stale).rejects.toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    await expect(stale).rejects.not.toBeInstanceOf(DomainError);
    fake.failNext('card-error');
    await expect(provider.reportMeterEvent(meterEvent())).rejects.toBeInstanceOf(Stripe.errors.StripeCardError);
  });
});

describe('StripeBillingProvider webhooks', () => {
  const provider = new StripeBillingProvider({ apiKey: API_KEY, webhookSecret: SECRET });
  const parse = (event: unknown) => {
    const { payload, signature } = signed(event, SECRET);
    return provider.parseWebhook(payload, signature);
  };

  it('reads a completed subscription checkout', () => {
    expect(parse(checkoutCompleted('evt_1', 42))).toEqual({
      id: 'evt_1',
      kind: 'checkout-completed',
      occurredAt: new Date(NOW_SECONDS * 1000),
      organizationId: 42,
      customerId: 'cus_test_1',
      subscriptionId: 'sub_test_1',
      paid: true,
    });
    expect(parse(checkoutCompleted('evt_2', 42, { paymentStatus: 'unpaid' }))).toMatchObject({ paid: false });
  });

  it('reads a completed one-time (credit pack) checkout, and its delayed payment succeeding', () => {
    expect(parse(checkoutCompleted('evt_p', 42, { mode: 'payment', sessionId: 'cs_pack', packId: 'pack_10m' }))).toEqual({
      id: 'evt_p',
      kind: 'payment-completed',
      occurredAt: new Date(NOW_SECONDS * 1000),
      organizationId: 42,
      customerId: 'cus_test_1',
      checkoutSessionId: 'cs_pack',
      packId: 'pack_10m',
      tokens: 5_000_000,
      paid: true,
    });
    expect(parse(checkoutCompleted('evt_t', 42, { mode: 'payment', packId: 'pack_20m', tokens: 20_000_000 }))).toMatchObject({ packId: 'pack_20m', tokens: 20_000_000 });
    expect(parse(checkoutCompleted('evt_q', 42, { mode: 'payment', paymentStatus: 'unpaid' }))).toMatchObject({ kind: 'payment-completed', paid: false });
    expect(parse(checkoutCompleted('evt_r', 42, { mode: 'payment', type: 'checkout.session.async_payment_succeeded' }))).toMatchObject({
      kind: 'payment-completed',
      paid: true,
    });
    // A subscription checkout's delayed payment is followed by subscription events instead.
    expect(parse(checkoutCompleted('evt_s', 42, { type: 'checkout.session.async_payment_succeeded' }))).toMatchObject({ kind: 'ignored' });
  });

  it.each(['customer.subscription.created', 'customer.subscription.updated', 'customer.subscription.deleted'] as const)('reads %s', (type) => {
    const options = { organizationId: 42, status: 'past_due', priceId: 'price_pro', productId: 'prod_pro', periodStart: NOW_SECONDS - 60, periodEnd: NOW_SECONDS + 60, cancelAtPeriodEnd: true };
    expect(parse(subscriptionEvent('evt_3', type, options))).toEqual({
      id: 'evt_3',
      kind: 'subscription-changed',
      occurredAt: new Date(NOW_SECONDS * 1000),
      organizationId: 42,
      customerId: 'cus_test_1',
      subscriptionId: 'sub_test_1',
      status: 'past_due',
      priceId: 'price_pro',
      productId: 'prod_pro',
      currentPeriodStart: new Date((NOW_SECONDS - 60) * 1000),
      currentPeriodEnd: new Date((NOW_SECONDS + 60) * 1000),
      cancelAtPeriodEnd: true,
    });
  });

  it('leaves the tokens null when the metadata has none, or none that is a plain count', () => {
    for (const tokens of [null, '', '-5', '5e6', '1.5', '05', ' 5', '9'.repeat(16)]) {
      expect(parse(checkoutCompleted('evt_tok', 42, { mode: 'payment', tokens })), JSON.stringify(tokens)).toMatchObject({ kind: 'payment-completed', tokens: null });
    }
    expect(parse(checkoutCompleted('evt_zero', 42, { mode: 'payment', tokens: '0' }))).toMatchObject({ tokens: 0 });
  });

  it('leaves the organization null when the reference is not one of ours', () => {
    expect(parse(checkoutCompleted('evt_4', 'not-a-number'))).toMatchObject({ organizationId: null });
    expect(parse(checkoutCompleted('evt_5', '99999999999'))).toMatchObject({ organizationId: null });
    expect(parse(subscriptionEvent('evt_6', 'customer.subscription.updated'))).toMatchObject({ organizationId: null });
  });

  it('ignores other event types and statuses it does not know', () => {
    expect(parse(otherEvent('evt_7'))).toMatchObject({ kind: 'ignored', type: 'invoice.paid' });
    expect(parse(subscriptionEvent('evt_8', 'customer.subscription.updated', { status: 'someday_new' }))).toMatchObject({ kind: 'ignored' });
  });

  it('refuses a correctly signed but malformed event with INVALID_WEBHOOK_EVENT, so Stripe stops redelivering it', () => {
    const valid = checkoutCompleted('evt_ok', 42);
    const subscription = subscriptionEvent('evt_sub', 'customer.subscription.updated', { organizationId: 42 });
    const malformed: unknown[] = [
      {},
      [],
      null,
      'event',
      { ...valid, id: `evt_${'x'.repeat(252)}` },
      { ...valid, id: 42 },
      { ...valid, created: 'yesterday' },
      { ...valid, data: null },
      { ...valid, data: { object: null } },
      { ...valid, data: { object: [] } },
      { ...valid, data: { object: { ...valid.data.object, customer: 'c'.repeat(256) } } },
      { ...valid, data: { object: { ...valid.data.object, metadata: { price_id: 'p'.repeat(256) } } } },
      { ...valid, data: { object: { ...valid.data.object, mode: 'payment', metadata: { pack_id: 'p'.repeat(256) } } } },
      // The delayed-payment event is read as a completed one, so it is checked as one.
      { ...valid, type: 'checkout.session.async_payment_succeeded', data: { object: { ...valid.data.object, mode: 'payment', customer: 'c'.repeat(256) } } },
      { ...valid, type: 'checkout.session.async_payment_succeeded', data: { object: { ...valid.data.object, metadata: 'none' } } },
      { ...subscription, data: { object: { ...subscription.data.object, id: null } } },
      { ...subscription, data: { object: { ...subscription.data.object, items: { data: 'none' } } } },
    ];
    for (const event of malformed) {
      expect(() => parse(event), JSON.stringify(event)?.slice(0, 80)).toThrowError(expect.objectContaining({ code: 'INVALID_WEBHOOK_EVENT' }));
    }
    expect(parse({ ...valid, id: `evt_${'x'.repeat(251)}` })).toMatchObject({ kind: 'checkout-completed' });
    expect(parse({ ...otherEvent('evt_any'), data: { object: { anything: 'goes' } } })).toMatchObject({ kind: 'ignored' });
  });
});
