import type { AuditOrigin } from '../audit/audit-event';

/** The signed `state`, its flow and the binding cookie live 10 minutes: time to sign in, little to replay. */
export const IDP_STATE_TTL_SECONDS = 600;

/** What `/login?error=` may say after an identity-provider sign-in; clients match these exact words. */
export type IdpFailureReason =
  | 'oauth_cancelled'
  | 'oauth_invalid_state'
  | 'oauth_missing_code'
  | 'oauth_email_unverified'
  | 'oauth_signup_closed'
  | 'oauth_failed';

/**
 * The organizations context's way in for an invited email (B2B). Narrow on purpose, so accounts
 * does not depend on how invitations are stored.
 */
export interface PendingInvitations {
  /**
   * Accepts the invitation the user picked, as a verified user without a password, with the
   * invited role in the inviting organization. Picked: the one whose token hash the sign-in
   * carried from an invitation link (it must be pending for this normalized email); without one,
   * the only invitation pending for the email. Null when none is pending; throws IdpLoginFailure
   * when the carried one is not pending for this email, or when several organizations invite the
   * email and the sign-in named none: a provider login never joins an organization the user did
   * not pick. Joins the caller's transaction; the new member's `member.joined` event records
   * `origin`, the sign-in's request.
   */
  acceptFor(
    email: string,
    profile: { firstName: string | null; lastName: string | null },
    invitationTokenHash: string | null,
    origin: AuditOrigin,
  ): Promise<{ userId: number } | null>;
}

/**
 * An expected end of a sign-in, thrown between the steps of CompleteIdpLogin (and out of its
 * transaction, which it rolls back) and returned to the caller as a value. `message` is the real
 * cause, for the log only: never tokens, codes or cookies.
 */
export class IdpLoginFailure extends Error {
  override readonly name = 'IdpLoginFailure';

  constructor(
    readonly reason: IdpFailureReason,
    message: string,
    /** The existing account the sign-in was refused to (a suspended one): its organization's log records the failure. */
    readonly suspendedUser?: { id: number; organizationId: number },
  ) {
    super(message);
  }
}
