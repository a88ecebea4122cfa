import type { Selectable } from 'kysely';
import type { Passkey } from '../../core/passkeys/passkey';
import type { Tables } from './schema/tables';

/**
 * A `passkey` row as the domain's Passkey, for both adapter families: typed on the row as the
 * driver reads it (times and int8 as text), which the in-memory row (Dates, numbers) fits too.
 * `transports` is stored comma-separated.
 */
export const toPasskey = (row: Selectable<Tables['passkey']>): Passkey => ({
  id: Number(row.id),
  userId: row.user_id,
  name: row.name,
  credentialId: row.credential_id,
  publicKey: row.public_key,
  counter: Number(row.sign_count),
  userHandle: row.user_handle,
  deviceType: row.device_type,
  backedUp: row.backed_up,
  transports: row.transports === '' ? [] : row.transports.split(','),
  createdAt: new Date(row.created_at),
  lastUsedAt: row.last_used_at === null ? null : new Date(row.last_used_at),
});
