import * as v from 'valibot';
import type { CreditPack } from '../../../core/billing/credit-pack';
import type { StartCreditPackCheckout } from '../../../core/billing/start-credit-pack-checkout.use-case';
import type { VerifyCreditPackCheckout } from '../../../core/billing/verify-credit-pack-checkout.use-case';
import { serviceUnavailable } from '../../../core/shared/domain-error';
import { defineRoute, type AnyRoute } from '../route';
import { CheckoutResponse } from '../schemas/billing.schemas';
import { CreditPackCheckoutRequest, CreditPackResponse, VerifyCreditPackRequest, VerifyCreditPackResponse } from '../schemas/ai.schemas';

export interface CreditPackUseCases {
  startCreditPackCheckout: StartCreditPackCheckout;
  verifyCreditPackCheckout: VerifyCreditPackCheckout;
}

const TAG = 'Billing';
// Unset Stripe settings only change with a redeploy: ask callers to come back much later.
const NOT_CONFIGURED_RETRY_SECONDS = 3600;

/**
 * AI credit packs: the packs on sale (APP_AI_CREDIT_PACKS), a hosted one-time checkout for one,
 * and the check a page makes when the user comes back from paying. Without Stripe the list still
 * answers and the two others answer 503, like the other billing routes.
 */
export function creditPackRoutes(packs: readonly CreditPack[], useCases: CreditPackUseCases | undefined): AnyRoute[] {
  const configured = (): CreditPackUseCases => {
    if (!useCases) throw serviceUnavailable('Billing is not configured', NOT_CONFIGURED_RETRY_SECONDS);
    return useCases;
  };
  const listed = packs.map((pack) => ({ id: pack.id, name: pack.name, tokens: pack.tokens, amount_cents: pack.amountCents, currency: pack.currency }));
  return [
    defineRoute({
      method: 'get',
      path: '/billing/credit-packs',
      tag: TAG,
      operationId: 'listCreditPacks',
      summary: 'The AI credit packs on sale',
      description: 'Packs of AI tokens sold for a one-time payment. Credits never expire; they are spent after the plan’s allotment for the period.',
      access: 'readonly',
      apiKeys: 'accepted',
      responses: { 200: { description: 'The packs', schema: v.array(CreditPackResponse) } },
      handler: async () => ({ status: 200, body: listed }),
    }),
    defineRoute({
      method: 'post',
      path: '/billing/credit-packs/checkout',
      tag: TAG,
      operationId: 'createCreditPackCheckout',
      summary: 'Start a Stripe Checkout (payment mode) for a credit pack',
      description:
        "Starts a one-time Stripe Checkout for `pack_id`, priced inline: redirect the user to `url`. Back on the success page (`APP_BASE_WEB_URL/billing?credit_pack=success&session_id=…`), call verify with the `session_id`. An unknown `pack_id`: 422. 503 while Stripe is not configured.",
      access: 'org_admin',
      apiKeys: 'accepted',
      body: CreditPackCheckoutRequest,
      responses: { 200: { description: 'Where to send the user to pay', schema: CheckoutResponse } },
      errors: ['SERVICE_UNAVAILABLE'],
      handler: async ({ caller, body }) => ({ status: 200, body: await configured().startCreditPackCheckout.execute(caller, { packId: body.pack_id }) }),
    }),
    defineRoute({
      method: 'post',
      path: '/billing/credit-packs/verify',
      tag: TAG,
      operationId: 'verifyCreditPackCheckout',
      summary: 'Credit a paid credit-pack checkout now, without waiting for the webhook',
      description:
        'Asks Stripe about the checkout session and credits its pack if it is paid: `fulfilled`. Not paid yet (an asynchronous payment method): `pending`. A pack is credited exactly once, whichever of this call and the webhook comes first. A session of another organization, or unknown: 404 `RESOURCE_NOT_FOUND`. 503 while Stripe is not configured.',
      access: 'org_admin',
      apiKeys: 'accepted',
      body: VerifyCreditPackRequest,
      responses: { 200: { description: 'Whether the pack is credited', schema: VerifyCreditPackResponse } },
      errors: ['RESOURCE_NOT_FOUND', 'SERVICE_UNAVAILABLE'],
      handler: async ({ caller, body }) => ({
        status: 200,
        body: { status: await configured().verifyCreditPackCheckout.execute(caller, { sessionId: body.session_id }) },
      }),
    }),
  ];
}
