import { ContainerModule, type ResolutionContext } from 'inversify';
import { TOKENS } from './tokens';
import { passkeyRoutes } from '../http/routes/passkeys.routes';
import { PasskeyChallengeCookie } from '../http/session-cookie';
import { PostgresPasskeyRepository } from '../../adapters/postgres/postgres-passkey-repository';
import { PostgresPasskeyChallengeStore } from '../../adapters/postgres/postgres-passkey-challenge-store';
import { SimpleWebAuthnRelyingParty } from '../../adapters/webauthn/simplewebauthn-relying-party';
import type { PasskeysDeps } from '../../core/passkeys/passkeys-deps';
import { StartPasskeyRegistration } from '../../core/passkeys/start-passkey-registration.use-case';
import { RegisterPasskey } from '../../core/passkeys/register-passkey.use-case';
import { ListPasskeys } from '../../core/passkeys/list-passkeys.use-case';
import { RenamePasskey } from '../../core/passkeys/rename-passkey.use-case';
import { DeletePasskey } from '../../core/passkeys/delete-passkey.use-case';
import { StartPasskeyLogin } from '../../core/passkeys/start-passkey-login.use-case';
import { LoginWithPasskey } from '../../core/passkeys/login-with-passkey.use-case';

/**
 * Passkeys: their stores, the WebAuthn relying party (rp id and origins from the settings), the
 * use cases and the routes. Users, sessions, hashing and the issuer are the accounts module's.
 */
export function passkeysModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.PasskeyRepository).toDynamicValue((ctx) => new PostgresPasskeyRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.PasskeyChallengeStore).toDynamicValue((ctx) => new PostgresPasskeyChallengeStore(ctx.get(TOKENS.Database)));
    bind(TOKENS.RelyingParty).toDynamicValue((ctx) => {
      const config = ctx.get(TOKENS.Config);
      return new SimpleWebAuthnRelyingParty({ name: config.appName, rpId: config.webauthn.rpId, origins: [...config.webauthn.origins] });
    });

    const deps = (ctx: ResolutionContext): PasskeysDeps => ({
      passkeys: ctx.get(TOKENS.PasskeyRepository),
      challenges: ctx.get(TOKENS.PasskeyChallengeStore),
      relyingParty: ctx.get(TOKENS.RelyingParty),
      users: ctx.get(TOKENS.UserRepository),
      organizations: ctx.get(TOKENS.OrganizationRepository),
      sessions: ctx.get(TOKENS.SessionStore),
      sessionIssuer: ctx.get(TOKENS.SessionIssuer),
      tokenGenerator: ctx.get(TOKENS.TokenGenerator),
      tokenHasher: ctx.get(TOKENS.TokenHasher),
      clock: ctx.get(TOKENS.Clock),
      unitOfWork: ctx.get(TOKENS.UnitOfWork),
      audit: ctx.get(TOKENS.AuditLog),
      loginThrottle: ctx.get(TOKENS.LoginThrottle),
      failedSignIns: ctx.get(TOKENS.FailedSignIns),
    });

    bind(TOKENS.PasskeyUseCases).toDynamicValue((ctx) => {
      const passkeys = deps(ctx);
      return {
        startPasskeyRegistration: new StartPasskeyRegistration(passkeys),
        registerPasskey: new RegisterPasskey(passkeys),
        listPasskeys: new ListPasskeys(passkeys),
        renamePasskey: new RenamePasskey(passkeys),
        deletePasskey: new DeletePasskey(passkeys),
        startPasskeyLogin: new StartPasskeyLogin(passkeys),
        loginWithPasskey: new LoginWithPasskey(passkeys),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      passkeyRoutes(ctx.get(TOKENS.PasskeyUseCases), { session: ctx.get(TOKENS.SessionCookie), challenge: new PasskeyChallengeCookie(ctx.get(TOKENS.Config)) }),
    );
  });
}
