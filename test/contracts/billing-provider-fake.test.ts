import { serviceUnavailable } from '../../core/shared/domain-error';
import { FakeBillingProvider } from '../fakes/fake-billing-provider';
import { describeBillingProviderContract } from './billing-provider.contract';

// The fake the core tests run on must behave as the Stripe adapter does against Stripe's protocol.
describeBillingProviderContract('FakeBillingProvider', async () => {
  const provider = new FakeBillingProvider();
  return {
    provider,
    knownPrices: FakeBillingProvider.PRICES,
    archivePrice: (id) => provider.archivePrice(id),
    webhook(event, options) {
      const { rawBody, signature } = FakeBillingProvider.signed(event, options);
      return { payload: rawBody, signature };
    },
    failNextCallWithOutage: () => provider.failNext(serviceUnavailable()),
    sessionIdFrom: (url) => provider.sessionIdFrom(url),
    completeSession: (id, options) => provider.completeSession(id, options),
    countedMeterEvents: () => provider.meterEvents,
    teardown: async () => undefined,
  };
});
