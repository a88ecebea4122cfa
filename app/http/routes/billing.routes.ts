import { serviceUnavailable } from '../../../core/shared/domain-error';
import type { HandleBillingWebhook } from '../../../core/billing/handle-billing-webhook.use-case';
import type { OpenBillingPortal } from '../../../core/billing/open-billing-portal.use-case';
import type { StartCheckout } from '../../../core/billing/start-checkout.use-case';
import { defineRoute, type AnyRoute } from '../route';
import { CheckoutResponse, CreateCheckoutRequest, PortalResponse, WebhookReceivedResponse } from '../schemas/billing.schemas';

export interface BillingUseCases {
  startCheckout: StartCheckout;
  openPortal: OpenBillingPortal;
  handleWebhook: HandleBillingWebhook;
}

const TAG = 'Billing';
// Unset Stripe settings only change with a redeploy: ask callers to come back much later.
const NOT_CONFIGURED_RETRY_SECONDS = 3600;

/**
 * Billing through Stripe Checkout and its signed webhooks. Without APP_STRIPE_API_KEY/APP_STRIPE_WEBHOOK_SECRET the
 * routes stay mounted, so the OpenAPI description does not depend on settings, and answer 503.
 */
export function billingRoutes(useCases: BillingUseCases | undefined): AnyRoute[] {
  const configured = (): BillingUseCases => {
    if (!useCases) throw serviceUnavailable('Billing is not configured', NOT_CONFIGURED_RETRY_SECONDS);
    return useCases;
  };
  return [
    defineRoute({
      method: 'post',
      path: '/subscription/checkout',
      tag: TAG,
      operationId: 'createCheckoutSession',
      summary: "Start a Stripe Checkout that subscribes the caller's organization to a price",
      description:
        "Starts a Stripe Checkout in subscription mode for `price_id`: redirect the user to `url`. `price_id` must be an active Stripe price of an active plan's product, else 422 on `body.price_id`. While the organization has a live subscription (active, trialing, past_due): 409 `CONFLICT` (`reason: subscription_exists`); plans change in the billing portal. The organization's Stripe customer is created on first need. 503 `SERVICE_UNAVAILABLE` while Stripe is not configured.",
      access: 'org_admin',
      apiKeys: 'accepted',
      body: CreateCheckoutRequest,
      responses: { 200: { description: 'Where to send the user to pay', schema: CheckoutResponse } },
      errors: ['CONFLICT', 'SERVICE_UNAVAILABLE'],
      handler: async ({ caller, body }) => ({
        status: 200,
        body: await configured().startCheckout.execute(caller, { priceId: body.price_id }),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/subscription/portal',
      tag: TAG,
      operationId: 'createPortalSession',
      summary: "Open the Stripe billing portal for the caller's organization, returning to APP_BASE_WEB_URL/billing",
      description: "The organization's Stripe customer is created on first need (once per organization). 503 while Stripe is not configured.",
      access: 'org_admin',
      apiKeys: 'accepted',
      responses: { 200: { description: 'Where to send the user to manage billing', schema: PortalResponse } },
      errors: ['SERVICE_UNAVAILABLE'],
      handler: async ({ caller }) => ({ status: 200, body: await configured().openPortal.execute(caller) }),
    }),
    defineRoute({
      method: 'post',
      path: '/webhooks/stripe',
      tag: TAG,
      operationId: 'stripeWebhook',
      summary: 'Receives Stripe events, verified by the Stripe-Signature header over the raw body',
      description: "For Stripe only: the `Stripe-Signature` header is verified over the raw body (400 `MALFORMED_REQUEST` when it does not match). Each event is applied once; unknown event types are acknowledged.",
      access: 'public',
      rawBody: true,
      serverToServer: true,
      responses: { 200: { description: 'Verified and handled (or acknowledged and ignored)', schema: WebhookReceivedResponse } },
      errors: ['MALFORMED_REQUEST', 'PAYLOAD_TOO_LARGE', 'SERVICE_UNAVAILABLE'],
      handler: async ({ ctx }) => {
        const billing = configured();
        // The JSON body parser keeps the exact text it parsed; the signature covers those bytes.
        await billing.handleWebhook.execute({ rawBody: ctx.request.rawBody ?? '', signature: ctx.get('Stripe-Signature') });
        return { status: 200, body: { received: true } };
      },
    }),
  ];
}
