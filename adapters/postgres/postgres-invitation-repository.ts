import type { Invitation } from '../../core/organizations/invitation';
import type { InvitationRepository, NewInvitation } from '../../core/organizations/invitation-repository.port';
import { sql, type ExpressionBuilder, type RawBuilder, type Selectable } from 'kysely';
import { ROLES } from '../../core/access/role';
import type { ListWindow } from '../../core/shared/list-page';
import type { Database } from './database';
import { windowed } from './list-window';
import type { Tables } from './schema/tables';

type InvitationRow = Selectable<Tables['invitation']>;

const dateOrNull = (value: string | Date | null): Date | null => (value === null ? null : new Date(value));

const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  role: row.role,
  tokenHash: row.token_hash,
  invitedByUserId: row.invited_by_user_id,
  invitedByApiKeyId: row.invited_by_api_key_id,
  expiresAt: new Date(row.expires_at),
  acceptedAt: dateOrNull(row.accepted_at),
  revokedAt: dateOrNull(row.revoked_at),
  createdAt: new Date(row.created_at),
});

export class PostgresInvitationRepository implements InvitationRepository {
  constructor(private readonly database: Database) {}

  create(input: NewInvitation): Promise<Invitation> {
    // Both statements in one transaction (joining the caller's when there is one).
    return this.database.transaction(async () => {
      await this.database.db
        .updateTable('invitation')
        .set({ revoked_at: input.createdAt })
        .where('organization_id', '=', input.organizationId)
        .where('email', '=', input.email)
        .where('accepted_at', 'is', null)
        .where('revoked_at', 'is', null)
        .execute();
      const row = await this.database.db
        .insertInto('invitation')
        .values({
          organization_id: input.organizationId,
          email: input.email,
          role: input.role,
          token_hash: input.tokenHash,
          invited_by_user_id: input.invitedByUserId,
          invited_by_api_key_id: input.invitedByApiKeyId,
          expires_at: input.expiresAt,
          created_at: input.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toInvitation(row);
    });
  }

  async findPendingByTokenHash(tokenHash: string, now: Date): Promise<Invitation | null> {
    const row = await this.database.db
      .selectFrom('invitation')
      .selectAll()
      .where(pending(now))
      .where('token_hash', '=', tokenHash)
      .executeTakeFirst();
    return row ? toInvitation(row) : null;
  }

  async consume(tokenHash: string, now: Date): Promise<Invitation | null> {
    // One statement: the row lock taken by UPDATE makes concurrent consumers queue, and the
    // ones after the winner re-check the pending conditions and match nothing.
    const row = await this.database.db
      .updateTable('invitation')
      .set({ accepted_at: now })
      .where(pending(now))
      .where('token_hash', '=', tokenHash)
      .returningAll()
      .executeTakeFirst();
    return row ? toInvitation(row) : null;
  }

  async listAcceptable(organizationId: number, now: Date, window?: ListWindow): Promise<Invitation[]> {
    const query = this.database.db
      .selectFrom('invitation')
      .selectAll()
      .where(pending(now))
      .where(issuerVouches(now))
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id');
    const rows = await windowed(query, window).execute();
    return rows.map(toInvitation);
  }

  async revoke(organizationId: number, id: number, now: Date): Promise<Invitation | null> {
    const row = await this.database.db
      .updateTable('invitation')
      .set({ revoked_at: now })
      .where(pending(now))
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .returningAll()
      .executeTakeFirst();
    return row ? toInvitation(row) : null;
  }

  async listPendingByEmail(email: string, now: Date): Promise<Invitation[]> {
    const rows = await this.database.db
      .selectFrom('invitation')
      .selectAll()
      .where(pending(now))
      .where('email', '=', email)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toInvitation);
  }
}

/** Invitations pending at `now`: not accepted, not revoked, not expired. */
const pending =
  (now: Date) =>
  ({ and, eb }: ExpressionBuilder<Tables, 'invitation'>) =>
    and([eb('accepted_at', 'is', null), eb('revoked_at', 'is', null), eb('expires_at', '>', now)]);

/** A role's precedence, as `precedenceOf` counts it: its position in ROLES. */
const precedence = (role: RawBuilder<unknown>) => sql`array_position(array[${sql.join(ROLES.map((name) => sql.lit(name)))}]::text[], ${role}::text)`;

/**
 * `inviterVouches` and `invitingKeyVouches` as a condition on an invitation row. A user issuer
 * exists and is active, and is a sys_admin or belongs to the organization and may grant the role
 * (not sys_admin, and at most their own precedence). A key issuer still exists (revoking deletes
 * it), has not expired at `now`, belongs to the organization and may grant the role the same way.
 * The contract suite runs the same cases against the core rules.
 */
const issuerVouches = (now: Date) => sql<boolean>`(exists (
  select 1 from app_user inviter
  where inviter.id = invitation.invited_by_user_id and inviter.status = 'active'
    and (inviter.role = 'sys_admin'
      or (inviter.organization_id = invitation.organization_id and invitation.role <> 'sys_admin'
        and ${precedence(sql.ref('invitation.role'))} <= ${precedence(sql.ref('inviter.role'))})))
  or exists (
  select 1 from api_key inviting_key
  where inviting_key.id = invitation.invited_by_api_key_id
    and (inviting_key.expires_at is null or inviting_key.expires_at > ${now})
    and inviting_key.organization_id = invitation.organization_id and invitation.role <> 'sys_admin'
    and ${precedence(sql.ref('invitation.role'))} <= ${precedence(sql.ref('inviting_key.role'))}))`;
