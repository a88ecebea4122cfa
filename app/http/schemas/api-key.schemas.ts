import * as v from 'valibot';
import { API_KEY_ROLES } from '../../../core/api-keys/api-key';
import { INT4_MAX, integer, integerParam } from './integer-param.schema';
import { requiredName } from './text.schema';
import { pageQuery } from '../paging';

/** Request and response shapes of the API-key routes; the OpenAPI description is built from these. */

const timestamp = v.pipe(v.string(), v.isoTimestamp());

/** A date and time with its offset (`Z` or `±hh:mm`), to the second or finer; a pattern bounds its length too. */
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export const CreateApiKeyRequest = v.object({
  name: v.pipe(requiredName(64), v.description('Shown in the list, so people can tell keys apart: 1..64 characters, one line')),
  role: v.pipe(v.picklist(API_KEY_ROLES, `Must be one of ${API_KEY_ROLES.join(', ')}`), v.description("The key's role; not above your own")),
  // null means never, as absent does: the ApiKey answer shows a never-expiring key as
  // `expires_at: null`, so a client that sends back what it read must not be refused.
  expires_at: v.optional(
    v.pipe(
      v.nullable(
        v.pipe(
          v.string('Must be a string'),
          v.regex(ISO_TIMESTAMP, 'Must be an ISO-8601 timestamp with an offset, such as 2027-01-31T12:00:00.000Z'),
          v.transform((text: string) => new Date(text)),
          v.check((date: Date) => !Number.isNaN(date.getTime()), 'Must be a real date and time'),
        ),
      ),
      v.description('When the key stops working: 1 hour to 1 year from now. Absent or null: never'),
    ),
  ),
});

export const ApiKeyIdParams = v.object({ api_key_id: integerParam(1, INT4_MAX, "The API key's id") });

export const ListApiKeysQuery = pageQuery('API keys');

export const ApiKeyResponse = v.object({
  id: integer,
  name: v.string(),
  role: v.picklist(API_KEY_ROLES),
  prefix: v.pipe(v.string(), v.description('The first 10 characters of the key, to recognise it by')),
  created_at: timestamp,
  created_by: v.nullable(v.object({ id: integer, email: v.string() })),
  expires_at: v.nullable(timestamp),
  last_used_at: v.nullable(v.pipe(timestamp, v.description('Updated at most once a minute'))),
});

export const CreatedApiKeyResponse = v.object({
  ...ApiKeyResponse.entries,
  key: v.pipe(v.string(), v.description('The key itself, shown only now: store it somewhere safe')),
});
