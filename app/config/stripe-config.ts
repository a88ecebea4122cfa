import * as v from 'valibot';
import { nonEmpty, setTogether, url, type FeatureSettings } from './setting-schemas';

/** The Stripe settings, as `config.ts` reads them with every other setting. */
export const STRIPE_SETTINGS = {
  APP_STRIPE_API_KEY: v.optional(nonEmpty),
  APP_STRIPE_WEBHOOK_SECRET: v.optional(nonEmpty),
  APP_STRIPE_API_BASE_URL: v.optional(url),
};

/** Billing through Stripe. `apiBaseUrl`: another Stripe-compatible host (stripe-mock, a test double); undefined is Stripe's. */
export interface StripeConfig {
  apiKey: string;
  webhookSecret: string;
  apiBaseUrl: string | undefined;
}

type StripeSettings = v.InferOutput<v.ObjectSchema<typeof STRIPE_SETTINGS, undefined>>;

/**
 * APP_STRIPE_API_KEY and APP_STRIPE_WEBHOOK_SECRET turn billing on together (a key without its
 * webhook secret could take payments whose events are never applied); neither, billing is off.
 * Returns the settings (undefined: off), or the problems.
 */
export function parseStripeSettings(raw: StripeSettings): FeatureSettings<StripeConfig> {
  return setTogether(['APP_STRIPE_API_KEY', 'APP_STRIPE_WEBHOOK_SECRET'], raw.APP_STRIPE_API_KEY, raw.APP_STRIPE_WEBHOOK_SECRET, (apiKey, webhookSecret) => ({
    apiKey,
    webhookSecret,
    apiBaseUrl: raw.APP_STRIPE_API_BASE_URL,
  }));
}
