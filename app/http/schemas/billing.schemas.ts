import * as v from 'valibot';

/** Request and response shapes of the billing routes; the OpenAPI description is built from these. */

export const CreateCheckoutRequest = v.object({
  price_id: v.pipe(
    v.string('Must be a string'),
    v.trim(),
    v.minLength(1, 'Must not be empty'),
    v.maxLength(255, 'Must be at most 255 characters'),
    v.regex(/^[^\u0000]*$/, 'Must not contain U+0000'),
  ),
});

export const CheckoutResponse = v.object({ url: v.pipe(v.string(), v.description('The hosted checkout page to redirect the user to')) });

export const PortalResponse = v.object({ url: v.pipe(v.string(), v.description('The hosted billing portal page to redirect the user to')) });

export const WebhookReceivedResponse = v.object({ received: v.literal(true) });
