import * as v from 'valibot';
import { integer, integerParam } from './integer-param.schema';
import { presentedPassword } from './account.schemas';

/** Request and response shapes of sessions, MFA and organization settings. */
const timestamp = v.pipe(v.string(), v.isoTimestamp());

/** Session ids are bigint in storage; any id a JavaScript number holds exactly is accepted. */
export const SessionIdParams = v.object({ session_id: integerParam(1, Number.MAX_SAFE_INTEGER) });

export const SessionResponse = v.object({
  id: integer,
  created_at: timestamp,
  last_seen_at: timestamp,
  expires_at: timestamp,
  user_agent: v.nullable(v.string()),
  ip: v.nullable(v.string()),
  current: v.boolean(),
});

export const RevokedResponse = v.object({ revoked: integer });

/** What people type: digits, perhaps with spaces; the use case checks it is six digits. */
// The metadata describes the limits the pipe enforces after its transform (where the description stops).
const totpCode = v.pipe(
  v.string(),
  v.metadata({ minLength: 1, maxLength: 16 }),
  v.trim(),
  v.transform((code) => code.replace(/\s+/g, '')),
  v.minLength(1, 'Required'),
  v.maxLength(16),
);
const recoveryCode = v.pipe(v.string(), v.trim(), v.minLength(1, 'Required'), v.maxLength(64));

export const TotpSetupResponse = v.object({ secret: v.string(), otpauth_url: v.string() });
export const CodeRequest = v.object({ code: totpCode });
export const RecoveryCodesResponse = v.object({ recovery_codes: v.array(v.string()) });
export const DisableTotpRequest = v.object({ password: v.optional(presentedPassword), code: v.optional(totpCode) });

/** Exactly one of the two: a code from the authenticator, or one recovery code. */
export const VerifyMfaRequest = v.pipe(
  v.object({ code: v.optional(totpCode), recovery_code: v.optional(recoveryCode) }),
  v.metadata({ oneOf: [{ required: ['code'] }, { required: ['recovery_code'] }] }),
  v.check((body) => (body.code === undefined) !== (body.recovery_code === undefined), 'Give either code or recovery_code'),
);

export const LoginResponse = v.union([
  v.object({ user_id: integer }),
  v.object({ mfa_required: v.literal(true) }),
]);

export const OrganizationSettingsResponse = v.object({ overage_enabled: v.boolean(), require_mfa: v.boolean() });
export const OrganizationSettingsRequest = v.strictObject({ overage_enabled: v.optional(v.boolean()), require_mfa: v.optional(v.boolean()) });
