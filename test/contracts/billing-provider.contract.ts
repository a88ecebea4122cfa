import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  BillingEvent,
  BillingProvider,
  CheckoutCompletedEvent,
  CheckoutRequest,
  PaymentCompletedEvent,
  SubscriptionChangedEvent,
} from '../../core/billing/billing-provider.port';

export interface BillingProviderHarness {
  provider: BillingProvider;
  /** Prices the provider sells; any other price is refused. */
  knownPrices: readonly string[];
  /** The provider's wire form of `event` and its signature header, signed at `at` (default now) with `secret` (default the right one). */
  webhook(event: BillingEvent, options?: { at?: Date; secret?: string }): { payload: string; signature: string };
  /** The next checkout meets a provider that fails on its side. */
  failNextCheckoutWithOutage(): void;
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

    it('reports a provider failing on its side as unavailable, and works again afterwards', async () => {
      h.failNextCheckoutWithOutage();
      await expect(h.provider.createCheckoutSession(aCheckout())).rejects.toMatchObject(OUTAGE);
      await expect(h.provider.createCheckoutSession(aCheckout())).resolves.toHaveProperty('url');
    });

    it('reads a completed checkout, paid or not, and one whose organization is not ours', () => {
      expect(parse(checkoutCompleted)).toEqual(checkoutCompleted);
      const unpaid: CheckoutCompletedEvent = { ...checkoutCompleted, id: 'evt_contract_unpaid', paid: false };
      expect(parse(unpaid)).toEqual(unpaid);
      const foreign: CheckoutCompletedEvent = { ...checkoutCompleted, id: 'evt_contract_foreign', organizationId: null, customerId: null, subscriptionId: null };
      expect(parse(foreign)).toEqual(foreign);
    });

    it('reads a completed one-time payment (a credit pack), paid or pending', () => {
      expect(parse(paymentCompleted)).toEqual(paymentCompleted);
      const pending: PaymentCompletedEvent = { ...paymentCompleted, id: 'evt_contract_pending', paid: false, packId: null };
      expect(parse(pending)).toEqual(pending);
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
