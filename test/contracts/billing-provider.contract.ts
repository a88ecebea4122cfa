import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  BillingEvent,
  BillingProvider,
  CheckoutCompletedEvent,
  CheckoutRequest,
  MeterEvent,
  PaymentCheckoutRequest,
  PaymentCompletedEvent,
  SubscriptionChangedEvent,
} from '../../core/billing/billing-provider.port';

export interface BillingProviderHarness {
  provider: BillingProvider;
  /** Prices the provider sells, each `price_X` selling the product `prod_X`; any other price is refused. */
  knownPrices: readonly string[];
  /** The provider stops selling this price (archived): still found, no longer active. */
  archivePrice(priceId: string): void;
  /** The provider's wire form of `event` and its signature header, signed at `at` (default now) with `secret` (default the right one). */
  webhook(event: BillingEvent, options?: { at?: Date; secret?: string }): { payload: string; signature: string };
  /** The next call, of any kind, meets a provider that fails on its side. */
  failNextCallWithOutage(): void;
  /** The provider's session id behind a checkout URL it handed out (what the hosted page would pass on). */
  sessionIdFrom(url: string): string;
  /** The customer finishes the hosted checkout, paid or with a delayed payment still pending. */
  completeSession(sessionId: string, options: { paid: boolean }): void;
  /** The meter events the provider counted, in provider-neutral terms. */
  countedMeterEvents(): Pick<MeterEvent, 'eventName' | 'customerId' | 'value' | 'identifier' | 'timestamp'>[];
  teardown(): Promise<void>;
}

// The errors the port promises, in one place.
const BAD_SIGNATURE = { code: 'INVALID_WEBHOOK_SIGNATURE' };
const UNKNOWN_PRICE = { code: 'VALIDATION_ERROR', details: { priceId: expect.any(String) } };
const OUTAGE = { code: 'SERVICE_UNAVAILABLE' };

// Whole seconds: the provider's event timestamps have no finer unit.
const T0 = new Date(Math.floor(Date.now() / 1000) * 1000);

const checkoutCompleted: CheckoutCompletedEvent = {
  id: 'evt_contract_checkout',
  kind: 'checkout-completed',
  occurredAt: T0,
  organizationId: 42,
  customerId: 'cus_contract',
  subscriptionId: 'sub_contract',
  paid: true,
};

const paymentCompleted: PaymentCompletedEvent = {
  id: 'evt_contract_payment',
  kind: 'payment-completed',
  occurredAt: T0,
  organizationId: 42,
  customerId: 'cus_contract',
  checkoutSessionId: 'cs_contract_pack',
  packId: 'pack_5m',
  tokens: 5_000_000,
  paid: true,
};

const subscriptionChanged: SubscriptionChangedEvent = {
  id: 'evt_contract_subscription',
  kind: 'subscription-changed',
  occurredAt: T0,
  organizationId: 42,
  customerId: 'cus_contract',
  subscriptionId: 'sub_contract',
  status: 'past_due',
  priceId: 'price_pro',
  productId: 'prod_pro',
  currentPeriodStart: T0,
  currentPeriodEnd: new Date(T0.getTime() + 30 * 86_400_000),
  cancelAtPeriodEnd: true,
};

let sequence = 0;

export function describeBillingProviderContract(name: string, setup: () => Promise<BillingProviderHarness>): void {
  describe(`BillingProvider contract: ${name}`, () => {
    let h: BillingProviderHarness;
    let customerId: string;

    beforeEach(async () => {
      h = await setup();
      sequence += 1;
      customerId = (await h.provider.createCustomer({ organizationId: 42, name: 'Acme', idempotencyKey: `customer-contract-${process.pid}-${sequence}` })).customerId;
    });

    afterEach(async () => {
      await h.teardown();
    });

    const aCheckout = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => {
      sequence += 1;
      return {
        organizationId: 42,
        customerId,
        priceId: h.knownPrices[0]!,
        successUrl: 'https://app.example.test/billing?checkout=success',
        cancelUrl: 'https://app.example.test/billing?checkout=cancelled',
        idempotencyKey: `checkout-contract-${process.pid}-${sequence}`,
        ...overrides,
      };
    };

    const aPaymentCheckout = (overrides: Partial<PaymentCheckoutRequest> = {}): PaymentCheckoutRequest => {
      sequence += 1;
      return {
        organizationId: 42,
        customerId,
        item: { name: '5M AI tokens', amountCents: 1_900, currency: 'eur' },
        packId: 'pack_5m',
        tokens: 5_000_000,
        successUrl: 'https://app.example.test/billing?pack=success',
        cancelUrl: 'https://app.example.test/billing?pack=cancelled',
        idempotencyKey: `pack-contract-${process.pid}-${sequence}`,
        ...overrides,
      };
    };

    // Whole seconds, as the provider keeps them.
    const aMeterEvent = (overrides: Partial<MeterEvent> = {}): MeterEvent => {
      sequence += 1;
      return { eventName: 'ai_tokens', customerId, value: 1_234, identifier: `usage-contract-${process.pid}-${sequence}`, timestamp: new Date(T0.getTime() - 60_000), ...overrides };
    };

    const counted = (identifier: string) => h.countedMeterEvents().filter((event) => event.identifier === identifier);

    const parse = (event: BillingEvent) => {
      const { payload, signature } = h.webhook(event);
      return h.provider.parseWebhook(payload, signature);
    };

    it('opens a checkout and hands back the https URL to send the customer to', async () => {
      const { url } = await h.provider.createCheckoutSession(aCheckout());
      expect(new URL(url).protocol).toBe('https:');
    });

    it('creates one customer per idempotency key: a replay answers the first customer', async () => {
      const request = { organizationId: 7, name: 'Seven Ltd', idempotencyKey: `customer-contract-replay-${process.pid}-${sequence}` };
      const first = await h.provider.createCustomer(request);
      expect(first.customerId).toMatch(/^cus_/);
      await expect(h.provider.createCustomer(request)).resolves.toEqual(first);
      await expect(h.provider.createCustomer({ ...request, idempotencyKey: `${request.idempotencyKey}-other` })).resolves.not.toEqual(first);
    });

    it("opens the customer's billing portal and hands back its https URL", async () => {
      const { url } = await h.provider.createPortalSession({ customerId, returnUrl: 'https://app.example.test/billing' });
      expect(new URL(url).protocol).toBe('https:');
    });

    it('answers a replayed idempotency key with the same session, and another key with another one', async () => {
      const request = aCheckout();
      const first = await h.provider.createCheckoutSession(request);

      await expect(h.provider.createCheckoutSession(request)).resolves.toEqual(first);
      await expect(h.provider.createCheckoutSession(aCheckout())).resolves.not.toEqual(first);
    });

    it('refuses a price it does not sell with a validation error on the price', async () => {
      await expect(h.provider.createCheckoutSession(aCheckout({ priceId: 'price_nobody_sells' }))).rejects.toMatchObject(UNKNOWN_PRICE);
    });

    it('finds a price with the product it sells, active until archived; none for an unknown or malformed id', async () => {
      const [first, second] = h.knownPrices;
      await expect(h.provider.findPrice(first!)).resolves.toEqual({ id: first, productId: first!.replace('price_', 'prod_'), active: true });
      h.archivePrice(second!);
      await expect(h.provider.findPrice(second!)).resolves.toEqual({ id: second, productId: second!.replace('price_', 'prod_'), active: false });
      for (const unknown of ['price_nobody_sells', '', '../customers', 'price x']) {
        await expect(h.provider.findPrice(unknown), JSON.stringify(unknown)).resolves.toBeNull();
      }
      h.failNextCallWithOutage();
      await expect(h.provider.findPrice(first!)).rejects.toMatchObject(OUTAGE);
    });

    it('reports a provider failing on its side as unavailable, and works again afterwards', async () => {
      h.failNextCallWithOutage();
      await expect(h.provider.createCheckoutSession(aCheckout())).rejects.toMatchObject(OUTAGE);
      await expect(h.provider.createCheckoutSession(aCheckout())).resolves.toHaveProperty('url');
    });

    it('opens a payment checkout whose session is found by id, unpaid until the customer pays, carrying organization, pack and tokens', async () => {
      const { url } = await h.provider.createPaymentCheckout(aPaymentCheckout());
      expect(new URL(url).protocol).toBe('https:');
      const id = h.sessionIdFrom(url);
      const open = { id, organizationId: 42, customerId, mode: 'payment', paid: false, packId: 'pack_5m', tokens: 5_000_000 };

      await expect(h.provider.findCheckoutSession(id)).resolves.toEqual(open);
      h.completeSession(id, { paid: false });
      await expect(h.provider.findCheckoutSession(id)).resolves.toEqual(open);
      h.completeSession(id, { paid: true });
      await expect(h.provider.findCheckoutSession(id)).resolves.toEqual({ ...open, paid: true });
    });

    it('answers a replayed payment checkout with the same session, and another key with another one', async () => {
      const request = aPaymentCheckout();
      const first = await h.provider.createPaymentCheckout(request);
      await expect(h.provider.createPaymentCheckout(request)).resolves.toEqual(first);
      const other = await h.provider.createPaymentCheckout(aPaymentCheckout({ packId: 'pack_20m', tokens: 20_000_000 }));
      expect(other).not.toEqual(first);
      await expect(h.provider.findCheckoutSession(h.sessionIdFrom(other.url))).resolves.toMatchObject({ packId: 'pack_20m', tokens: 20_000_000 });
    });

    it('finds a subscription checkout too, with no pack on it', async () => {
      const { url } = await h.provider.createCheckoutSession(aCheckout());
      const id = h.sessionIdFrom(url);
      await expect(h.provider.findCheckoutSession(id)).resolves.toEqual({ id, organizationId: 42, customerId, mode: 'subscription', paid: false, packId: null, tokens: null });
    });

    it('finds no session for an id it never issued, well-formed or not', async () => {
      for (const id of ['cs_test_a1b2c3d4e5f6a1b2c3d4e5f6', 'cs_nobody', 'not_a_session', 'not a session', '../customers', '', 'cs_'.padEnd(300, 'x')]) {
        await expect(h.provider.findCheckoutSession(id), JSON.stringify(id)).resolves.toBeNull();
      }
    });

    it('reports an outage while looking a session up as unavailable, not as a missing session', async () => {
      const { url } = await h.provider.createPaymentCheckout(aPaymentCheckout());
      h.failNextCallWithOutage();
      await expect(h.provider.findCheckoutSession(h.sessionIdFrom(url))).rejects.toMatchObject(OUTAGE);
    });

    it('counts a meter event once per identifier, however often it is reported', async () => {
      const event = aMeterEvent();
      await h.provider.reportMeterEvent(event);
      await h.provider.reportMeterEvent(event);
      const { eventName, customerId: customer, value, identifier, timestamp } = event;
      expect(counted(identifier)).toEqual([{ eventName, customerId: customer, value, identifier, timestamp }]);

      const another = aMeterEvent({ value: 7 });
      await h.provider.reportMeterEvent(another);
      expect(counted(another.identifier)).toEqual([expect.objectContaining({ value: 7 })]);
    });

    it('reports an outage while metering as unavailable, and counts the retry once', async () => {
      const event = aMeterEvent();
      h.failNextCallWithOutage();
      await expect(h.provider.reportMeterEvent(event)).rejects.toMatchObject(OUTAGE);
      expect(counted(event.identifier)).toEqual([]);

      await h.provider.reportMeterEvent(event);
      await h.provider.reportMeterEvent(event);
      expect(counted(event.identifier)).toHaveLength(1);
    });

    it('reads a completed checkout, paid or not, and one whose organization is not ours', () => {
      expect(parse(checkoutCompleted)).toEqual(checkoutCompleted);
      const unpaid: CheckoutCompletedEvent = { ...checkoutCompleted, id: 'evt_contract_unpaid', paid: false };
      expect(parse(unpaid)).toEqual(unpaid);
      const foreign: CheckoutCompletedEvent = { ...checkoutCompleted, id: 'evt_contract_foreign', organizationId: null, customerId: null, subscriptionId: null };
      expect(parse(foreign)).toEqual(foreign);
    });

    it('reads a completed one-time payment (a credit pack) with its tokens, paid or pending', () => {
      expect(parse(paymentCompleted)).toEqual(paymentCompleted);
      const pending: PaymentCompletedEvent = { ...paymentCompleted, id: 'evt_contract_pending', paid: false, packId: null, tokens: null };
      expect(parse(pending)).toEqual(pending);
      const bigger: PaymentCompletedEvent = { ...paymentCompleted, id: 'evt_contract_bigger', packId: 'pack_20m', tokens: 20_000_000 };
      expect(parse(bigger)).toEqual(bigger);
    });

    it('reads a subscription change, with or without a price and a period end', () => {
      expect(parse(subscriptionChanged)).toEqual(subscriptionChanged);
      const ended: SubscriptionChangedEvent = {
        ...subscriptionChanged,
        id: 'evt_contract_ended',
        status: 'canceled',
        organizationId: null,
        priceId: null,
        productId: null,
        currentPeriodStart: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
      };
      expect(parse(ended)).toEqual(ended);
    });

    it('reads any other event as ignored, naming its type', () => {
      const other: BillingEvent = { id: 'evt_contract_other', kind: 'ignored', type: 'invoice.paid', occurredAt: T0 };
      expect(parse(other)).toEqual(other);
    });

    it('refuses a missing, garbled or foreign signature', () => {
      const { payload, signature } = h.webhook(checkoutCompleted);
      const foreign = h.webhook(checkoutCompleted, { secret: 'whsec_someone_else' }).signature;
      for (const header of ['', 'garbage', signature.slice(0, -4), foreign]) {
        expect(() => h.provider.parseWebhook(payload, header), `header ${JSON.stringify(header)}`).toThrowError(expect.objectContaining(BAD_SIGNATURE));
      }
    });

    it('refuses every malformed signature header as a bad signature, never with another error', () => {
      const { payload, signature } = h.webhook(checkoutCompleted);
      const now = Math.floor(Date.now() / 1000);
      const v1 = signature.slice(signature.indexOf('v1=') + 3);
      const headers = [
        `t=${now},v1=`,
        `t=${now},v1`,
        `t=${now}`,
        `t=${now},`,
        `t=${now},v1=,v1=`,
        `t=,v1=${v1}`,
        `t=abc,v1=${v1}`,
        `t=${now},v1=zz`,
        `t=${now},v1=${v1.slice(0, 10)}`,
        `t=${now},v1==${v1}`,
        `v1=${v1}`,
        ',',
        '=',
        '==,==',
        `t=${now},v0=${v1}`,
        `t=${now},v1=${v1}`.replace('t=', 'T='),
        `t=${'9'.repeat(400)},v1=${v1}`,
        `t=${now},v1=${'a'.repeat(10_000)}`,
        '\u0000',
      ];
      for (const header of headers) {
        expect(() => h.provider.parseWebhook(payload, header), `header ${JSON.stringify(header.slice(0, 80))}`).toThrowError(expect.objectContaining(BAD_SIGNATURE));
      }
    });

    it('refuses a body changed after signing', () => {
      const { payload, signature } = h.webhook(checkoutCompleted);
      const changed = payload.replace(checkoutCompleted.id, `${checkoutCompleted.id}x`);
      expect(changed).not.toBe(payload);

      expect(() => h.provider.parseWebhook(changed, signature)).toThrowError(expect.objectContaining(BAD_SIGNATURE));
    });

    it('refuses a signature older than five minutes, a replay', () => {
      const fresh = h.webhook(checkoutCompleted, { at: new Date(Date.now() - 60_000) });
      expect(h.provider.parseWebhook(fresh.payload, fresh.signature)).toEqual(checkoutCompleted);

      const old = h.webhook(checkoutCompleted, { at: new Date(Date.now() - 3_600_000) });
      expect(() => h.provider.parseWebhook(old.payload, old.signature)).toThrowError(expect.objectContaining(BAD_SIGNATURE));
    });
  });
}
