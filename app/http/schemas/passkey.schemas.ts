import * as v from 'valibot';
import { integer, integerParam } from './integer-param.schema';
import { optionalName, requiredName } from './text.schema';

/** Request and response shapes of passkeys: the WebAuthn JSON forms pass through as objects. */
const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const PASSKEY_NAME_MAX = 64;

export const PasskeyIdParams = v.object({ passkey_id: integerParam(1, Number.MAX_SAFE_INTEGER) });

export const PasskeyResponse = v.object({
  id: integer,
  name: v.string(),
  created_at: timestamp,
  last_used_at: v.nullable(timestamp),
  backed_up: v.boolean(),
  device_type: v.picklist(['single_device', 'multi_device']),
  transports: v.array(v.string()),
});

export const PasskeyListResponse = v.array(PasskeyResponse);

/** `PublicKeyCredentialCreationOptionsJSON`, for `PublicKeyCredential.parseCreationOptionsFromJSON()`. */
export const CreationOptionsResponse = v.pipe(
  v.looseObject({ challenge: v.string(), rp: v.looseObject({ id: v.string(), name: v.string() }), user: v.looseObject({ id: v.string(), name: v.string() }) }),
  v.description('PublicKeyCredentialCreationOptionsJSON (WebAuthn Level 3)'),
);

/** `PublicKeyCredentialRequestOptionsJSON`, for `PublicKeyCredential.parseRequestOptionsFromJSON()`. */
export const RequestOptionsResponse = v.pipe(
  v.looseObject({ challenge: v.string(), rpId: v.string() }),
  v.description('PublicKeyCredentialRequestOptionsJSON (WebAuthn Level 3)'),
);

/** What `PublicKeyCredential.toJSON()` gives; the relying party checks the rest. */
const credentialJson = (what: string) =>
  v.pipe(v.looseObject({ id: v.string(), rawId: v.string(), type: v.string(), response: v.looseObject({ clientDataJSON: v.string() }) }), v.description(what));

export const RegisterPasskeyRequest = v.object({
  response: credentialJson('RegistrationResponseJSON: `toJSON()` of the credential `navigator.credentials.create()` returned'),
  name: optionalName(PASSKEY_NAME_MAX),
});

export const RenamePasskeyRequest = v.object({ name: requiredName(PASSKEY_NAME_MAX) });

export const PasskeyLoginRequest = v.object({
  response: credentialJson('AuthenticationResponseJSON: `toJSON()` of the credential `navigator.credentials.get()` returned'),
});
