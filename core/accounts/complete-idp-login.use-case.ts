import { DomainError } from '../shared/domain-error';
import { constantTimeEqual } from '../shared/constant-time-equal';
import { IdentityProviderError, type VerifiedIdentity } from './identity-provider.port';
import type { IdpLoginFlow } from './idp-login-flow-store.port';
import type { IdpLoginDeps, IdpLoginPorts } from './accounts-deps';
import { IdpLoginFailure, type IdpFailureReason } from './idp-login';
import { resolveIdpAccount, type IdpAccountOutcome } from './resolve-idp-account';
import type { IssuedSession } from './session-issuer';
import type { SessionOrigin } from './session-store.port';
import type { IssuedChallenge } from './sign-in-completion.port';

export interface CompleteIdpLoginInput {
  /** The callback URL as received; the provider adapter reads its query. */
  callbackUrl: URL;
  state: string | undefined;
  code: string | undefined;
  /** OAuth `error` parameter: the provider refused, or the user cancelled (`access_denied`). */
  error: string | undefined;
  /** Value of the binding cookie, if the browser sent it. */
  binding: string | undefined;
  /** A session token the browser already presented: revoked once the new one exists (no fixation). */
  presentedToken?: string | undefined;
  origin?: SessionOrigin;
}

/**
 * Every end of a callback is a value: the browser is redirected either way. `cause` is for the
 * log; `unexpected` carries an error nobody planned for (a bug, the database down), to be logged
 * as an error rather than a warning.
 */
export type CompleteIdpLoginResult =
  | { ok: true; kind: 'session'; userId: number; outcome: IdpAccountOutcome; session: IssuedSession }
  /** The user has a second factor: the browser goes on to the MFA page with a challenge. */
  | { ok: true; kind: 'mfa_required'; userId: number; outcome: IdpAccountOutcome; challenge: IssuedChallenge }
  | { ok: false; reason: IdpFailureReason; cause: string; unexpected?: unknown };

/**
 * Second leg of an identity-provider sign-in. In order: the state's signature and expiry, the
 * binding cookie (constant time), the one-time flow (consumed atomically, so a state is accepted
 * once), the provider's answer, the code exchange with ID-token validation, then account
 * resolution and a new session in one transaction.
 */
export class CompleteIdpLogin {
  constructor(private readonly deps: Pick<IdpLoginDeps, keyof IdpLoginPorts | 'settings' | 'signInCompletion' | 'failedSignIns'>) {}

  async execute(input: CompleteIdpLoginInput): Promise<CompleteIdpLoginResult> {
    try {
      const { state, flow, invitationHash } = await this.consumeFlow(input);
      if (input.error !== undefined) {
        const reason = input.error === 'access_denied' ? 'oauth_cancelled' : 'oauth_failed';
        throw new IdpLoginFailure(reason, `the provider answered error=${input.error.slice(0, 100)}`);
      }
      if (!input.code) throw new IdpLoginFailure('oauth_missing_code', 'the callback carries no code');
      const identity = await this.exchange(input.callbackUrl, state, flow);
      return { ok: true, ...(await this.signIn(identity, input, invitationHash)) };
    } catch (error) {
      if (error instanceof IdpLoginFailure) {
        const user = error.suspendedUser;
        if (user) this.deps.failedSignIns.record({ userId: user.id, organizationId: user.organizationId, method: 'idp', reason: 'account_suspended', origin: input.origin });
        return { ok: false, reason: error.reason, cause: error.message };
      }
      return { ok: false, reason: 'oauth_failed', cause: 'unexpected error', unexpected: error };
    }
  }

  private async consumeFlow(input: CompleteIdpLoginInput): Promise<{ state: string; flow: IdpLoginFlow; invitationHash: string | null }> {
    const invalid = (cause: string) => new IdpLoginFailure('oauth_invalid_state', cause);
    const state = input.state;
    if (!state) throw invalid('the callback carries no state');
    const now = this.deps.clock.now();
    const verified = await this.deps.stateSigner.verify(state, now);
    if (!verified.valid) throw invalid(`state ${verified.problem.replace('_', ' ')}`);
    if (!input.binding) throw invalid('no binding cookie: another browser, or the cookie expired or was used');
    if (!constantTimeEqual(this.deps.tokenHasher.hash(input.binding), verified.claims.bindingHash)) {
      throw invalid('the binding cookie belongs to another sign-in');
    }
    const sealed = await this.deps.flows.consume(this.deps.tokenHasher.hash(verified.claims.flowKey), now);
    if (!sealed) throw invalid('state already used, or its flow expired');
    // Stored sealed under the flow key, which only the signed state carries.
    const codeVerifier = this.deps.secretBox.open(sealed.codeVerifier, verified.claims.flowKey);
    const nonce = this.deps.secretBox.open(sealed.nonce, verified.claims.flowKey);
    if (codeVerifier === null || nonce === null) throw invalid('the stored flow does not open with this state');
    return { state, flow: { codeVerifier, nonce }, invitationHash: verified.claims.invitationHash ?? null };
  }

  private async exchange(callbackUrl: URL, state: string, flow: IdpLoginFlow): Promise<VerifiedIdentity> {
    try {
      return await this.deps.provider.completeAuthorization({
        callbackUrl,
        expectedState: state,
        codeVerifier: flow.codeVerifier,
        nonce: flow.nonce,
      });
    } catch (error) {
      if (!(error instanceof IdentityProviderError)) throw error;
      const reason = error.oauthError === 'access_denied' ? 'oauth_cancelled' : 'oauth_failed';
      throw new IdpLoginFailure(reason, `${error.reason}: ${error.message}`);
    }
  }

  private signIn(identity: VerifiedIdentity, input: CompleteIdpLoginInput, invitationHash: string | null) {
    // No network inside: the provider has been heard from already.
    return this.deps.unitOfWork.transaction(async () => {
      const now = this.deps.clock.now();
      const { userId, outcome } = await resolveIdpAccount(this.deps, this.deps.settings.mode, identity, now, invitationHash, input.origin);
      if (input.presentedToken) {
        const previous = await this.deps.sessions.findByTokenHash(this.deps.tokenHasher.hash(input.presentedToken));
        if (previous) await this.deps.sessions.revoke(previous.sessionId);
      }
      // Read in this transaction, after any claim: the session is made under the current credentials.
      const user = await this.deps.users.findById(userId);
      if (!user) throw new IdpLoginFailure('oauth_failed', `user ${userId} went away during the sign-in`);
      const signedIn = await this.deps.signInCompletion
        .complete({ userId, organizationId: user.organizationId, credentialsVersion: user.credentialsVersion, method: 'idp' }, input.origin).catch((error: unknown) => {
        // The account's second-factor guesses fill their window: the provider's word is no new challenge either.
        if (error instanceof DomainError && error.code === 'TOO_MANY_ATTEMPTS') {
          throw new IdpLoginFailure('oauth_failed', `user ${userId} has too many wrong second-factor codes; no challenge issued`);
        }
        throw error;
      });
      return signedIn.kind === 'session'
        ? { kind: 'session' as const, userId, outcome, session: signedIn.session }
        : { kind: 'mfa_required' as const, userId, outcome, challenge: signedIn.challenge };
    });
  }
}
