import { ContainerModule } from 'inversify';
import type { Context } from 'koa';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import type { Database } from '../../adapters/postgres/database';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresSessionStore } from '../../adapters/postgres/postgres-session-store';
import { PostgresOneTimeTokenStore } from '../../adapters/postgres/postgres-one-time-token-store';
import { PostgresEmailOutbox } from '../../adapters/postgres/postgres-email-outbox';
import { BcryptPasswordHasher } from '../../adapters/crypto/bcrypt-password-hasher';
import { NodeTokenGenerator } from '../../adapters/crypto/node-token-generator';
import { Sha256TokenHasher } from '../../adapters/crypto/sha256-token-hasher';
import type { AccountsPorts, AccountsSettings } from '../../core/accounts/accounts-ports';
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
import { SessionCookie } from '../http/session-cookie';
import { accountRoutes } from '../http/routes/accounts.routes';
import type { AfterResponse } from '../http/after-response';

/** Accounts and sessions: PostgreSQL adapters, bcrypt, the use cases, the session guard and routes. */
export function accountsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<AccountsSettings>(TOKENS.AccountsSettings).toDynamicValue((ctx) => {
      const config = ctx.get<AppConfig>(TOKENS.Config);
      return { mode: config.mode, sessionMaxAgeSeconds: config.sessionCookieMaxAge, appName: 'tenantkit', baseWebUrl: config.baseWebUrl };
    });
    const database = (ctx: { get<T>(id: symbol): T }) => ctx.get<Database>(TOKENS.Database);
    bind(TOKENS.UserRepository).toDynamicValue((ctx) => new PostgresUserRepository(database(ctx)));
    bind(TOKENS.OrganizationRepository).toDynamicValue((ctx) => new PostgresOrganizationRepository(database(ctx)));
    bind(TOKENS.SessionStore).toDynamicValue((ctx) => new PostgresSessionStore(database(ctx)));
    bind(TOKENS.OneTimeTokenStore).toDynamicValue((ctx) => new PostgresOneTimeTokenStore(database(ctx)));
    bind(TOKENS.EmailOutbox).toDynamicValue((ctx) => new PostgresEmailOutbox(database(ctx)));
    bind<BcryptPasswordHasher>(TOKENS.PasswordHasher)
      .toDynamicValue((ctx) => new BcryptPasswordHasher(ctx.get<AppConfig>(TOKENS.Config).passwordHashCost))
      .onDeactivation((hasher) => hasher.close());
    bind(TOKENS.TokenGenerator).toConstantValue(new NodeTokenGenerator());
    bind(TOKENS.TokenHasher).toConstantValue(new Sha256TokenHasher());
    bind<AccountsPorts>(TOKENS.AccountsPorts).toDynamicValue((ctx) => ({
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
    }));
    bind(TOKENS.SessionIssuer).toDynamicValue(
      (ctx) => new SessionIssuer(ctx.get<AccountsPorts>(TOKENS.AccountsPorts), ctx.get<AppConfig>(TOKENS.Config).sessionCookieMaxAge),
    );
    bind(TOKENS.SessionCookie).toDynamicValue((ctx) => new SessionCookie(ctx.get<AppConfig>(TOKENS.Config)));
    bind(TOKENS.Authenticate).toDynamicValue((ctx) => {
      const authenticate = new AuthenticateSession(ctx.get<AccountsPorts>(TOKENS.AccountsPorts));
      const cookie = ctx.get<SessionCookie>(TOKENS.SessionCookie);
      return (koa: Context) => authenticate.execute(cookie.read(koa));
    });
    bind(TOKENS.Routes).toDynamicValue((ctx) => {
      const ports = ctx.get<AccountsPorts>(TOKENS.AccountsPorts);
      const settings = ctx.get<AccountsSettings>(TOKENS.AccountsSettings);
      return accountRoutes(
        {
          signup: new Signup(ports, settings),
          signupOrganization: new SignupOrganization(ports, settings),
          verifyEmail: new VerifyEmail(ports),
          resendVerification: new ResendVerification(ports, settings),
          login: new Login(ports, ctx.get<SessionIssuer>(TOKENS.SessionIssuer)),
          logout: new Logout(ports.sessions),
          forgotPassword: new ForgotPassword(ports, settings),
          resetPassword: new ResetPassword(ports),
          updatePassword: new UpdatePassword(ports),
          getCurrentUser: new GetCurrentUser(ports),
        },
        ctx.get<SessionCookie>(TOKENS.SessionCookie),
        { signupOpen: settings.mode === 'b2c', afterResponse: ctx.get<AfterResponse>(TOKENS.AfterResponse) },
      );
    });
  });
}
