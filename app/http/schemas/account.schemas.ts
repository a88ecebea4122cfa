import * as v from 'valibot';
import { isValidPassword, PASSWORD_MAX, PASSWORD_MIN } from '../../../core/accounts/password-policy';
import { ROLES } from '../../../core/access/role';
import { maxCharacters, noControlCharacters, optionalName, requiredName, storable } from './text.schema';
import { PERSON_NAME_MAX } from '../../../core/accounts/update-profile.use-case';
import { integer } from './integer-param.schema';

/** Request and response shapes of the account routes; the OpenAPI description is built from these. */
export const email = v.pipe(v.string(), v.trim(), v.toLowerCase(), v.email('Must be an email address'), v.maxLength(320));

/** A password being set: 8..64 Unicode code points. */
export const newPassword = v.pipe(
  v.string(),
  v.metadata({ maxLength: PASSWORD_MAX }),
  v.minLength(PASSWORD_MIN, `Password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`),
  v.check(isValidPassword, `Password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`),
);

/** A password being checked: never policy-checked (old passwords stay usable), only bounded. */
export const presentedPassword = v.pipe(v.string(), v.minLength(1, 'Required'), v.maxLength(1024));

export const token = v.pipe(v.string(), v.minLength(1, 'Required'), v.maxLength(256));

const personName = optionalName(PERSON_NAME_MAX);

export const SignupRequest = v.object({ email, password: newPassword, first_name: personName, last_name: personName });

export const SignupOrgRequest = v.object({
  ...SignupRequest.entries,
  organization_name: requiredName(200),
});

export const LoginRequest = v.object({ email, password: presentedPassword });
export const EmailRequest = v.object({ email });
/** Email verification takes its token from the body or, for a link posted as it is, the query; the route requires one of them. */
export const TokenRequest = v.object({ token: v.optional(token) });
export const TokenQuery = v.object({ token: v.optional(token) });
export const RequiredTokenRequest = v.object({ token });
export const ResetPasswordRequest = v.object({ token, new_password: newPassword });
export const UpdatePasswordRequest = v.object({ current_password: presentedPassword, new_password: newPassword });

/** A name being changed: one line without control characters, trimmed, 1..100 characters, storable; or null to clear it. */
const personNameChange = v.optional(
  v.nullable(v.pipe(v.string('Must be a string'), noControlCharacters, v.trim(), v.minLength(1, 'Must not be empty'), ...maxCharacters(PERSON_NAME_MAX), storable)),
);

/** At least one of the two names; any other key is refused, so a typo is not silently a no-op. */
export const UpdateCurrentUserRequest = v.pipe(
  v.strictObject({ first_name: personNameChange, last_name: personNameChange }, 'Unknown field: only first_name and last_name'),
  v.metadata({ minProperties: 1 }),
  v.check((body) => Object.keys(body).length > 0, 'Give first_name, last_name or both'),
);

export const UserIdResponse = v.object({ user_id: integer });
export const SuccessResponse = v.object({ success: v.literal(true) });

/** A role as requests name it: its stored name. */
export const roleName = v.picklist(ROLES, `Must be one of ${ROLES.join(', ')}`);

export const RoleView = v.object({ name: roleName, precedence: integer });

export const IdpAuthorizeUrlResponse = v.object({ authorization_url: v.pipe(v.string(), v.url()) });

export const CurrentUserResponse = v.object({
  id: integer,
  email: v.string(),
  first_name: v.nullable(v.string()),
  last_name: v.nullable(v.string()),
  email_verified: v.boolean(),
  has_password: v.boolean(),
  organization_id: integer,
  organization_name: v.string(),
  role: RoleView,
  created_at: v.pipe(v.string(), v.isoTimestamp()),
});
