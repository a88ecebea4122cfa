import { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import { billingRoutes } from '../http/routes/billing.routes';
import { configRoutes } from '../http/routes/config.routes';
import { creditPackRoutes } from '../http/routes/credit-packs.routes';
import { FulfilCreditPack } from '../../core/billing/fulfil-credit-pack';
import { StartCreditPackCheckout } from '../../core/billing/start-credit-pack-checkout.use-case';
import { VerifyCreditPackCheckout } from '../../core/billing/verify-credit-pack-checkout.use-case';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { StripeBillingProvider } from '../../adapters/stripe/stripe-billing-provider';
import type { BillingDeps } from '../../core/billing/billing-deps';
import type { BillingProvider } from '../../core/billing/billing-provider.port';
import { HandleBillingWebhook } from '../../core/billing/handle-billing-webhook.use-case';
import { OpenBillingPortal } from '../../core/billing/open-billing-portal.use-case';
import { StartCheckout } from '../../core/billing/start-checkout.use-case';
import { PlanProducts } from '../../core/plans/plan-products';

function stripeProvider(config: AppConfig): BillingProvider {
  if (!config.stripe) throw new Error('Stripe is not configured');
  return new StripeBillingProvider(config.stripe);
}

/**
 * Billing: the Stripe provider (APP_STRIPE_API_BASE_URL may point it at another host), the
 * PostgreSQL billing records, the use cases and the routes. Without APP_STRIPE_* the routes are
 * still bound, without use cases, and answer 503; nothing resolves the provider then. Credit packs:
 * the list (always), their checkout and verification, and their fulfilment into the AI credit
 * ledger (bound by the AI module). Also `GET /config`, what this deployment offers.
 */
export function billingModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.SubscriptionRepository).toDynamicValue((ctx) => new PostgresSubscriptionRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.BillingProvider).toDynamicValue((ctx) => stripeProvider(ctx.get(TOKENS.Config)));

    bind(TOKENS.BillingUseCases).toDynamicValue((ctx) => {
      const deps: BillingDeps = {
        provider: ctx.get(TOKENS.BillingProvider),
        subscriptions: ctx.get(TOKENS.SubscriptionRepository),
        products: new PlanProducts(ctx.get(TOKENS.PlanRepository)),
        organizations: ctx.get(TOKENS.OrganizationRepository),
        creditPacks: ctx.get(TOKENS.CreditPackFulfilment),
        packs: ctx.get(TOKENS.Config).ai.creditPacks,
        ledger: ctx.get(TOKENS.CreditLedger),
        tokenHasher: ctx.get(TOKENS.TokenHasher),
        unitOfWork: ctx.get(TOKENS.UnitOfWork),
        audit: ctx.get(TOKENS.AuditLog),
        clock: ctx.get(TOKENS.Clock),
        logger: ctx.get(TOKENS.Logger),
        settings: { baseWebUrl: ctx.get(TOKENS.Config).baseWebUrl },
      };
      return {
        startCheckout: new StartCheckout(deps),
        openPortal: new OpenBillingPortal(deps),
        handleWebhook: new HandleBillingWebhook(deps),
        startCreditPackCheckout: new StartCreditPackCheckout(deps),
        verifyCreditPackCheckout: new VerifyCreditPackCheckout(deps),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      billingRoutes(ctx.get(TOKENS.Config).stripe ? ctx.get(TOKENS.BillingUseCases) : undefined),
    );
    bind(TOKENS.Routes).toDynamicValue((ctx) => {
      const config = ctx.get(TOKENS.Config);
      return creditPackRoutes(config.ai.creditPacks, config.stripe ? ctx.get(TOKENS.BillingUseCases) : undefined);
    });
    bind(TOKENS.CreditPackFulfilment).toDynamicValue(
      (ctx) => new FulfilCreditPack({
          ledger: ctx.get(TOKENS.CreditLedger),
          packs: ctx.get(TOKENS.Config).ai.creditPacks,
          logger: ctx.get(TOKENS.Logger),
          unitOfWork: ctx.get(TOKENS.UnitOfWork),
          audit: ctx.get(TOKENS.AuditLog),
        }),
    );
    bind(TOKENS.Routes).toDynamicValue((ctx) => configRoutes(ctx.get(TOKENS.Config)));
  });
}
