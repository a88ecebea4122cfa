import { serviceUnavailable } from '../shared/domain-error';
import { addSeconds } from '../shared/clock.port';
import { IdentityProviderError, type AuthorizationRequest } from './identity-provider.port';
import type { IdpLoginDeps } from './accounts-deps';
import { IDP_STATE_TTL_SECONDS } from './idp-login';

export interface StartedIdpLogin {
  /** Where the frontend sends the browser. */
  authorizationUrl: string;
  /** Goes into the binding cookie and nowhere else: the state carries only its hash. */
  binding: string;
  /** Lifetime of the state, its flow and the cookie. */
  maxAgeSeconds: number;
}

/** Flows pruned per start: keeps the table small without a job, at a bounded cost per call. */
const PRUNE_BATCH = 100;

/**
 * First leg of an identity-provider sign-in. The PKCE verifier and the nonce stay server-side
 * in a one-time flow keyed by the hash of a random flow key, sealed under that key: the signed
 * `state` carries the key (and the hash of a random binding value that only the initiating
 * browser holds, in a cookie), so a copy of the store alone opens no flow. A sign-in that starts
 * from an invitation link carries that invitation's token hash in the state: it is the
 * invitation the sign-in may accept.
 */
export class StartIdpLogin {
  constructor(
    private readonly deps: Pick<
      IdpLoginDeps,
      'provider' | 'stateSigner' | 'flows' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'secretBox' | 'logger'
    >,
  ) {}

  async execute(input: { invitationToken?: string | undefined } = {}): Promise<StartedIdpLogin> {
    const { tokenGenerator, tokenHasher } = this.deps;
    const now = this.deps.clock.now();
    const expiresAt = addSeconds(now, IDP_STATE_TTL_SECONDS);
    const flowKey = tokenGenerator.generate();
    const binding = tokenGenerator.generate();
    const invitation = input.invitationToken === undefined ? {} : { invitationHash: tokenHasher.hash(input.invitationToken) };
    const state = await this.deps.stateSigner.sign({ flowKey, bindingHash: tokenHasher.hash(binding), ...invitation }, { issuedAt: now, expiresAt });
    const request = await this.authorizationRequest(state);
    await this.deps.flows.create({
      flowKeyHash: tokenHasher.hash(flowKey),
      codeVerifier: this.deps.secretBox.seal(request.codeVerifier, flowKey),
      nonce: this.deps.secretBox.seal(request.nonce, flowKey),
      createdAt: now,
      expiresAt,
    });
    // A flow expires with its state, so deleting expired flows can never re-open a replay.
    await this.deps.flows.pruneExpiredBefore(now, PRUNE_BATCH);
    return { authorizationUrl: request.url, binding, maxAgeSeconds: IDP_STATE_TTL_SECONDS };
  }

  private async authorizationRequest(state: string): Promise<AuthorizationRequest> {
    try {
      return await this.deps.provider.createAuthorizationRequest(state);
    } catch (error) {
      if (!(error instanceof IdentityProviderError)) throw error;
      // Discovery failed: the provider is down or misconfigured. Either way the user can only retry later.
      this.deps.logger.warn({ failure: error.reason, cause: error.message }, 'identity provider unavailable');
      throw serviceUnavailable('The identity provider cannot be reached, try again shortly');
    }
  }
}
