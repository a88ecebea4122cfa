import * as v from 'valibot';
import { nonEmpty, setTogether, url, type FeatureSettings } from './setting-schemas';

/** The identity provider's settings, as `config.ts` reads them with every other setting. */
export const OIDC_SETTINGS = {
  APP_IDP_ISSUER: v.optional(url, 'https://accounts.google.com'),
  APP_IDP_CLIENT_ID: v.optional(nonEmpty),
  APP_IDP_CLIENT_SECRET: v.optional(nonEmpty),
};

/** Sign-in through an OpenID Connect identity provider: its issuer and this API's client there. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

type OidcSettings = v.InferOutput<v.ObjectSchema<typeof OIDC_SETTINGS, undefined>>;

/**
 * APP_IDP_CLIENT_ID and APP_IDP_CLIENT_SECRET turn provider sign-in on together; neither, it is
 * off. Returns the settings (undefined: off), or the problems.
 */
export function parseOidcSettings(raw: OidcSettings): FeatureSettings<OidcConfig> {
  return setTogether(['APP_IDP_CLIENT_ID', 'APP_IDP_CLIENT_SECRET'], raw.APP_IDP_CLIENT_ID, raw.APP_IDP_CLIENT_SECRET, (clientId, clientSecret) => ({
    issuer: raw.APP_IDP_ISSUER,
    clientId,
    clientSecret,
  }));
}
