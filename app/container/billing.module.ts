import { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import { billingRoutes } from '../http/routes/billing.routes';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { StripeBillingProvider } from '../../adapters/stripe/stripe-billing-provider';
import type { BillingDeps } from '../../core/billing/billing-deps';
import type { BillingProvider } from '../../core/billing/billing-provider.port';
import { HandleBillingWebhook } from '../../core/billing/handle-billing-webhook.use-case';
import { StartCheckout } from '../../core/billing/start-checkout.use-case';

function stripeProvider(config: AppConfig): BillingProvider {
  if (!config.stripe) throw new Error('Stripe is not configured');
  return new StripeBillingProvider(config.stripe);
}

/**
 * Billing: the Stripe provider, the PostgreSQL subscriptions, the two use cases and the routes.
 * Without APP_STRIPE_* the routes are still bound, without use cases, and answer 503; nothing
 * resolves the provider then.
 */
export function billingModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.SubscriptionRepository).toDynamicValue((ctx) => new PostgresSubscriptionRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.BillingProvider).toDynamicValue((ctx) => stripeProvider(ctx.get(TOKENS.Config)));

    bind(TOKENS.BillingUseCases).toDynamicValue((ctx) => {
      const deps: BillingDeps = {
        provider: ctx.get(TOKENS.BillingProvider),
        subscriptions: ctx.get(TOKENS.SubscriptionRepository),
        users: ctx.get(TOKENS.UserRepository),
        tokenHasher: ctx.get(TOKENS.TokenHasher),
        unitOfWork: ctx.get(TOKENS.UnitOfWork),
        clock: ctx.get(TOKENS.Clock),
        logger: ctx.get(TOKENS.Logger),
        settings: { baseWebUrl: ctx.get(TOKENS.Config).baseWebUrl },
      };
      return { startCheckout: new StartCheckout(deps), handleWebhook: new HandleBillingWebhook(deps) };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      billingRoutes(ctx.get(TOKENS.Config).stripe ? ctx.get(TOKENS.BillingUseCases) : undefined),
    );
  });
}
