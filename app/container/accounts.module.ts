import { ContainerModule, type ResolutionContext } from 'inversify';
import { TOKENS } from './tokens';
import { MfaChallengeCookie, SessionCookie } from '../http/session-cookie';
import { sessionRoutes } from '../http/routes/sessions.routes';
import { accountRoutes } from '../http/routes/accounts.routes';
import { emailLinkRoutes } from '../http/routes/email-link.routes';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresSessionStore } from '../../adapters/postgres/postgres-session-store';
import { PostgresOneTimeTokenStore } from '../../adapters/postgres/postgres-one-time-token-store';
import { PostgresEmailOutbox } from '../../adapters/postgres/postgres-email-outbox';
import { BcryptPasswordHasher } from '../../adapters/crypto/bcrypt-password-hasher';
import { NodeTokenGenerator } from '../../adapters/crypto/node-token-generator';
import { Sha256TokenHasher } from '../../adapters/crypto/sha256-token-hasher';
import type { AccountsDeps, AccountsPorts } from '../../core/accounts/accounts-deps';
import { SessionIssuer } from '../../core/accounts/session-issuer';
import { AuthenticateSession } from '../../core/accounts/authenticate-session.use-case';
import { Signup } from '../../core/accounts/signup.use-case';
import { SignupOrganization } from '../../core/accounts/signup-organization.use-case';
import { VerifyEmail } from '../../core/accounts/verify-email.use-case';
import { ResendVerification } from '../../core/accounts/resend-verification.use-case';
import { Login } from '../../core/accounts/login.use-case';
import { Logout } from '../../core/accounts/logout.use-case';
import { ForgotPassword } from '../../core/accounts/forgot-password.use-case';
import { ResetPassword } from '../../core/accounts/reset-password.use-case';
import { UpdatePassword } from '../../core/accounts/update-password.use-case';
import { GetCurrentUser } from '../../core/accounts/get-current-user.use-case';
import { UpdateProfile } from '../../core/accounts/update-profile.use-case';
import { ListSessions } from '../../core/accounts/list-sessions.use-case';
import { RevokeSession } from '../../core/accounts/revoke-session.use-case';
import { RevokeOtherSessions } from '../../core/accounts/revoke-other-sessions.use-case';
import { SessionActivity } from '../../core/accounts/session-activity';
import { LoginThrottle } from '../../core/accounts/login-throttle';
import { RequestEmailLink } from '../../core/accounts/request-email-link.use-case';
import { VerifyEmailLink } from '../../core/accounts/verify-email-link.use-case';
import { FailedSignIns } from '../../core/accounts/failed-sign-ins';

/** The accounts ports as bound here: the one list of them, which the organizations module extends. */
export function accountsPorts(ctx: ResolutionContext): AccountsPorts {
  return {
    users: ctx.get(TOKENS.UserRepository),
    organizations: ctx.get(TOKENS.OrganizationRepository),
    sessions: ctx.get(TOKENS.SessionStore),
    tokens: ctx.get(TOKENS.OneTimeTokenStore),
    passwordHasher: ctx.get(TOKENS.PasswordHasher),
    tokenGenerator: ctx.get(TOKENS.TokenGenerator),
    tokenHasher: ctx.get(TOKENS.TokenHasher),
    clock: ctx.get(TOKENS.Clock),
    outbox: ctx.get(TOKENS.EmailOutbox),
    unitOfWork: ctx.get(TOKENS.UnitOfWork),
    rateLimiter: ctx.get(TOKENS.RateLimiter),
    audit: ctx.get(TOKENS.AuditLog),
  };
}

/**
 * Accounts and sessions: the users, organizations, sessions, one-time tokens and outbox that
 * other contexts build on too, password hashing, the use cases, the session guard and routes.
 */
export function accountsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.UserRepository).toDynamicValue((ctx) => new PostgresUserRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.OrganizationRepository).toDynamicValue((ctx) => new PostgresOrganizationRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.SessionStore).toDynamicValue((ctx) => new PostgresSessionStore(ctx.get(TOKENS.Database)));
    bind(TOKENS.OneTimeTokenStore).toDynamicValue((ctx) => new PostgresOneTimeTokenStore(ctx.get(TOKENS.Database)));
    bind(TOKENS.EmailOutbox).toDynamicValue((ctx) => new PostgresEmailOutbox(ctx.get(TOKENS.Database)));
    bind(TOKENS.PasswordHasher)
      .toDynamicValue((ctx) => new BcryptPasswordHasher(ctx.get(TOKENS.Config).passwordHashCost))
      // Its worker threads must end with the container, or the process cannot exit.
      .onDeactivation(async (hasher) => {
        if (hasher instanceof BcryptPasswordHasher) await hasher.close();
      });
    bind(TOKENS.TokenGenerator).toConstantValue(new NodeTokenGenerator());
    bind(TOKENS.TokenHasher).toConstantValue(new Sha256TokenHasher());
    bind(TOKENS.AccountsSettings).toDynamicValue((ctx) => {
      const config = ctx.get(TOKENS.Config);
      return { mode: config.mode, sessionMaxAgeSeconds: config.sessionCookieMaxAge, appName: config.appName, baseWebUrl: config.baseWebUrl };
    });
    bind(TOKENS.SessionIssuer).toDynamicValue(
      (ctx) => new SessionIssuer(accountsPorts(ctx), ctx.get(TOKENS.AccountsSettings).sessionMaxAgeSeconds),
    );
    bind(TOKENS.SessionCookie).toDynamicValue((ctx) => new SessionCookie(ctx.get(TOKENS.Config)));
    bind(TOKENS.MfaChallengeCookie).toDynamicValue((ctx) => new MfaChallengeCookie(ctx.get(TOKENS.Config)));
    bind(TOKENS.SessionActivity).toDynamicValue(
      (ctx) => new SessionActivity({ sessions: ctx.get(TOKENS.SessionStore), clock: ctx.get(TOKENS.Clock), logger: ctx.get(TOKENS.Logger) }),
    );
    bind(TOKENS.LoginThrottle).toDynamicValue((ctx) => new LoginThrottle(accountsPorts(ctx)));
    bind(TOKENS.FailedSignIns).toDynamicValue(
      (ctx) => new FailedSignIns({ users: ctx.get(TOKENS.UserRepository), audit: ctx.get(TOKENS.AuditLog), logger: ctx.get(TOKENS.Logger) }),
    );

    bind(TOKENS.AccountUseCases).toDynamicValue((ctx) => {
      const deps: AccountsDeps = {
        ...accountsPorts(ctx),
        settings: ctx.get(TOKENS.AccountsSettings),
        sessionIssuer: ctx.get(TOKENS.SessionIssuer),
        sessionActivity: ctx.get(TOKENS.SessionActivity),
        loginThrottle: ctx.get(TOKENS.LoginThrottle),
        // Bound by the MFA module: a user with a second factor gets a challenge, not a session.
        signInCompletion: ctx.get(TOKENS.SignInCompletion),
        failedSignIns: ctx.get(TOKENS.FailedSignIns),
      };
      return {
        authenticateSession: new AuthenticateSession(deps),
        signup: new Signup(deps),
        signupOrganization: new SignupOrganization(deps),
        verifyEmail: new VerifyEmail(deps),
        resendVerification: new ResendVerification(deps),
        login: new Login(deps),
        logout: new Logout(deps),
        forgotPassword: new ForgotPassword(deps),
        resetPassword: new ResetPassword(deps),
        updatePassword: new UpdatePassword(deps),
        getCurrentUser: new GetCurrentUser(deps),
        updateProfile: new UpdateProfile(deps),
        listSessions: new ListSessions(deps),
        revokeSession: new RevokeSession(deps),
        revokeOtherSessions: new RevokeOtherSessions(deps),
        requestEmailLink: new RequestEmailLink(deps),
        verifyEmailLink: new VerifyEmailLink(deps),
      };
    });

    bind(TOKENS.AuthenticateSession).toDynamicValue((ctx) => {
      const { authenticateSession } = ctx.get(TOKENS.AccountUseCases);
      const cookie = ctx.get(TOKENS.SessionCookie);
      return (koa) => authenticateSession.execute(cookie.read(koa));
    });
    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      accountRoutes(ctx.get(TOKENS.AccountUseCases), ctx.get(TOKENS.SessionCookie), ctx.get(TOKENS.MfaChallengeCookie), {
        signupOpen: ctx.get(TOKENS.AccountsSettings).mode === 'b2c',
        afterResponse: ctx.get(TOKENS.AfterResponse),
      }),
    );
    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      emailLinkRoutes(
        ctx.get(TOKENS.AccountUseCases),
        { session: ctx.get(TOKENS.SessionCookie), challenge: ctx.get(TOKENS.MfaChallengeCookie) },
        { enabled: ctx.get(TOKENS.Config).emailLinkSignIn, afterResponse: ctx.get(TOKENS.AfterResponse) },
      ),
    );
    bind(TOKENS.Routes).toDynamicValue((ctx) => sessionRoutes(ctx.get(TOKENS.AccountUseCases), ctx.get(TOKENS.SessionCookie)));
  });
}
