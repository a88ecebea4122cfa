import type { Selectable } from 'kysely';
import type { Passkey } from '../../core/passkeys/passkey';
import type { NewPasskey, PasskeyRepository } from '../../core/passkeys/passkey-repository.port';
import type { Database } from './database';
import { toPasskey } from './passkey-rows';
import { columnsOf } from './schema/columns';
import type { Tables } from './schema/tables';

type PasskeyRow = Selectable<Tables['passkey']>;

const COLUMNS = columnsOf('passkey').join(', ');

// The unique credential id is the guard: a second registration of one credential inserts nothing.
const CREATE = `insert into passkey (user_id, name, credential_id, public_key, sign_count, user_handle, device_type, backed_up, transports, created_at)
   values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
   on conflict (credential_id) do nothing
   returning ${COLUMNS}`;

// Compare-and-set on the counter: of two sign-ins with one assertion's counter, one writes.
const RECORD_USE = `update passkey set sign_count = $3, backed_up = $4, last_used_at = $5 where id = $1 and sign_count = $2`;

export class PostgresPasskeyRepository implements PasskeyRepository {
  constructor(private readonly database: Database) {}

  async create(input: NewPasskey): Promise<Passkey | null> {
    const [row] = await this.database.select<PasskeyRow>(CREATE, [
      input.userId,
      input.name,
      input.credentialId,
      input.publicKey,
      input.counter,
      input.userHandle,
      input.deviceType,
      input.backedUp,
      input.transports.join(','),
      input.createdAt,
    ]);
    return row ? toPasskey(row) : null;
  }

  async findByCredentialId(credentialId: string): Promise<Passkey | null> {
    const [row] = await this.database.select<PasskeyRow>(`select ${COLUMNS} from passkey where credential_id = $1`, [credentialId]);
    return row ? toPasskey(row) : null;
  }

  async listForUser(userId: number): Promise<Passkey[]> {
    const rows = await this.database.select<PasskeyRow>(`select ${COLUMNS} from passkey where user_id = $1 order by created_at, id`, [userId]);
    return rows.map(toPasskey);
  }

  async rename(userId: number, passkeyId: number, name: string): Promise<Passkey | null> {
    const [row] = await this.database.select<PasskeyRow>(`update passkey set name = $3 where id = $2 and user_id = $1 returning ${COLUMNS}`, [userId, passkeyId, name]);
    return row ? toPasskey(row) : null;
  }

  async delete(userId: number, passkeyId: number): Promise<boolean> {
    return (await this.database.run('delete from passkey where id = $2 and user_id = $1', [userId, passkeyId])) > 0;
  }

  async recordUse(passkeyId: number, use: { expectedCounter: number; counter: number; backedUp: boolean; at: Date }): Promise<boolean> {
    return (await this.database.run(RECORD_USE, [passkeyId, use.expectedCounter, use.counter, use.backedUp, use.at])) > 0;
  }
}
