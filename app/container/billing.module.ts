import { ContainerModule, type ResolutionContext } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import { billingRoutes } from '../http/routes/billing.routes';
import type { Database } from '../../adapters/postgres/database';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { StripeBillingProvider } from '../../adapters/stripe/stripe-billing-provider';
import type { AccountsPorts } from '../../core/accounts/accounts-ports';
import type { BillingProvider } from '../../core/billing/billing-provider.port';
import { HandleBillingWebhook } from '../../core/billing/handle-billing-webhook.use-case';
import { StartCheckout } from '../../core/billing/start-checkout.use-case';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import type { Clock } from '../../core/shared/clock.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';

function stripeProvider(config: AppConfig): BillingProvider {
  if (!config.stripe) throw new Error('Stripe is not configured');
  return new StripeBillingProvider(config.stripe);
}

/**
 * Billing: the Stripe provider, the PostgreSQL subscriptions and the two use cases. Without
 * APP_STRIPE_* the routes are still bound, without use cases, and answer 503.
 */
export function billingModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const config = (ctx: ResolutionContext) => ctx.get<AppConfig>(TOKENS.Config);
    bind<SubscriptionRepository>(TOKENS.SubscriptionRepository).toDynamicValue(
      (ctx) => new PostgresSubscriptionRepository(ctx.get<Database>(TOKENS.Database)),
    );
    bind<BillingProvider>(TOKENS.BillingProvider).toDynamicValue((ctx) => stripeProvider(config(ctx)));
    bind(TOKENS.StartCheckout).toDynamicValue((ctx) => {
      const accounts = ctx.get<AccountsPorts>(TOKENS.AccountsPorts);
      return new StartCheckout(ctx.get(TOKENS.BillingProvider), accounts.users, accounts.tokenHasher, ctx.get<Clock>(TOKENS.Clock), config(ctx).baseWebUrl);
    });
    bind(TOKENS.HandleBillingWebhook).toDynamicValue(
      (ctx) =>
        new HandleBillingWebhook(
          ctx.get(TOKENS.BillingProvider),
          ctx.get(TOKENS.SubscriptionRepository),
          ctx.get<UnitOfWork>(TOKENS.UnitOfWork),
          ctx.get<Clock>(TOKENS.Clock),
          ctx.get<Logger>(TOKENS.Logger),
        ),
    );
    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      billingRoutes(
        config(ctx).stripe
          ? { startCheckout: ctx.get(TOKENS.StartCheckout), handleWebhook: ctx.get(TOKENS.HandleBillingWebhook) }
          : undefined,
      ),
    );
  });
}
