import { afterAll, beforeAll, describe } from 'vitest';
import { StripeBillingProvider } from '../../adapters/stripe/stripe-billing-provider';
import { signed, stripeEventFor } from '../builders/stripe-events';
import { startStripeFake, type StripeFake } from '../fakes/stripe-fake';
import { describeBillingProviderContract } from './billing-provider.contract';

const API_KEY = 'sk_test_contract';
const SECRET = 'whsec_contract_secret';
const PRICES = ['price_basic', 'price_pro'];

// The adapter with the real Stripe SDK, against Stripe's wire protocol on 127.0.0.1.
describe('StripeBillingProvider against the Stripe fake', () => {
  let fake: StripeFake;
  beforeAll(async () => {
    fake = await startStripeFake({ apiKey: API_KEY, prices: PRICES });
  });
  afterAll(() => fake?.close());

  describeBillingProviderContract('Stripe', async () => ({
    provider: new StripeBillingProvider({ apiKey: API_KEY, webhookSecret: SECRET, apiBaseUrl: fake.url, timeoutMs: 5_000 }),
    knownPrices: PRICES,
    archivePrice: (id) => fake.archivePrice(id),
    webhook: (event, options = {}) => signed(stripeEventFor(event), options.secret ?? SECRET, options.at),
    failNextCallWithOutage: () => fake.failNext('server-error'),
    sessionIdFrom: (url) => fake.sessionIdFrom(url),
    completeSession: (id, options) => fake.completeSession(id, options),
    countedMeterEvents: () =>
      fake.meterEvents.map(({ eventName, customerId, value, identifier, timestamp }) => ({
        eventName,
        customerId,
        value: Number(value),
        identifier,
        timestamp: new Date(timestamp * 1000),
      })),
    teardown: async () => undefined,
  }));
});
