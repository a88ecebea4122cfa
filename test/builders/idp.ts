import { recordingLogger } from '../support/recording-logger';
import { JoseStateSigner } from '../../adapters/crypto/jose-state-signer';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box';
import { InMemoryIdentityLinkRepository } from '../../adapters/in-memory/in-memory-identity-link-repository';
import { InMemoryIdpLoginFlowStore } from '../../adapters/in-memory/in-memory-idp-login-flow-store';
import { InMemoryApiKeyRepository } from '../../adapters/in-memory/in-memory-api-key-repository';
import { InMemoryInvitationRepository } from '../../adapters/in-memory/in-memory-invitation-repository';
import type { AccountsSettings } from '../../core/accounts/accounts-deps';
import type { PasswordHasher } from '../../core/accounts/crypto.port';
import { CompleteIdpLogin, type CompleteIdpLoginInput } from '../../core/accounts/complete-idp-login.use-case';
import type { IdpLoginDeps, IdpLoginPorts } from '../../core/accounts/accounts-deps';
import { IdpPendingInvitations } from '../../core/organizations/idp-pending-invitations';
import type { RoleName } from '../../core/access/role';
import { StartIdpLogin, type StartedIdpLogin } from '../../core/accounts/start-idp-login.use-case';
import { FakeIdentityProvider } from '../fakes/fake-identity-provider';
import { accountsHarness } from './accounts';

export const STATE_SECRET = 'unit-test-state-secret-32-chars!';
export const CALLBACK = 'https://api.example.com/auth/oauth/idp/callback';


/** The accounts harness plus everything the identity-provider use cases need, all in memory. */
export function idpHarness(options: { mode?: AccountsSettings['mode']; withInvitations?: boolean; passwordHasher?: PasswordHasher } = {}) {
  const h = accountsHarness({ mode: options.mode ?? 'b2c' }, options.passwordHasher);
  const provider = new FakeIdentityProvider();
  const invitations = new InMemoryInvitationRepository(h.store);
  const links = new InMemoryIdentityLinkRepository(h.store);
  const flows = new InMemoryIdpLoginFlowStore(h.store);
  const logger = recordingLogger();
  const logs = logger.lines;
  const ports: IdpLoginPorts = {
    ...h.ports,
    provider,
    stateSigner: new JoseStateSigner(STATE_SECRET),
    flows,
    links,
    secretBox: new AesGcmSecretBox('tenantkit:idp-flow'),
    ...(options.withInvitations === false ? {} : { invitations: new IdpPendingInvitations({ ...h.ports, invitations, apiKeys: new InMemoryApiKeyRepository(h.store) }) }),
  };
  const deps: IdpLoginDeps = { ...ports, settings: h.settings, signInCompletion: h.signInCompletion, failedSignIns: h.failedSignIns, logger };
  const start = new StartIdpLogin(deps);
  const complete = new CompleteIdpLogin(deps);

  /** The callback input a browser would bring back for `started`, `overrides` winning. */
  const callback = (started: StartedIdpLogin, overrides: Partial<CompleteIdpLoginInput> & { query?: Record<string, string> } = {}) => {
    const state = new URL(started.authorizationUrl).searchParams.get('state') ?? '';
    const query = overrides.query ?? { code: provider.authorize(state), state };
    const callbackUrl = new URL(CALLBACK);
    callbackUrl.search = new URLSearchParams(query).toString();
    const input: CompleteIdpLoginInput = { callbackUrl, state: query.state, code: query.code, error: query.error, binding: started.binding, ...overrides };
    return input;
  };

  /** Starts a sign-in and brings the browser straight back. */
  const signIn = async (overrides: Partial<CompleteIdpLoginInput> = {}) => complete.execute(callback(await start.execute(), overrides));

  /**
   * A pending invitation of `email` into a new organization, as the organizations context stores
   * it, made by an org_admin of that organization; `token` is what its emailed link carries.
   */
  const invite = async (email: string, role: RoleName = 'member', expiresInMs = 7 * 86_400_000) => {
    const organization = await h.ports.organizations.create({ name: 'Inviting Org' });
    const inviter = await h.aUser({ organizationId: organization.id, role: 'org_admin' });
    const now = h.clock.now();
    const token = h.ports.tokenGenerator.generate();
    const invitation = await invitations.create({
      organizationId: organization.id,
      email,
      role,
      tokenHash: h.ports.tokenHasher.hash(token),
      invitedByUserId: inviter.id,
      invitedByApiKeyId: null,
      expiresAt: new Date(now.getTime() + expiresInMs),
      createdAt: now,
    });
    return { organization, invitation, token };
  };

  /** Starts a sign-in from an invitation link (its token) and brings the browser straight back. */
  const signInFromInvitation = async (invitationToken: string) => complete.execute(callback(await start.execute({ invitationToken })));

  return { ...h, provider, links, flows, invitations, logs, start, complete, callback, signIn, signInFromInvitation, invite };
}
