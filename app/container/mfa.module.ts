import { ContainerModule, type ResolutionContext } from 'inversify';
import { TOKENS } from './tokens';
import { mfaRoutes } from '../http/routes/mfa.routes';
import { PostgresMfaRepository } from '../../adapters/postgres/postgres-mfa-repository';
import { PostgresMfaChallengeStore } from '../../adapters/postgres/postgres-mfa-challenge-store';
import { OtpauthTotpVerifier } from '../../adapters/crypto/otpauth-totp-verifier';
import { NodeRecoveryCodeGenerator } from '../../adapters/crypto/node-recovery-code-generator';
import type { MfaDeps } from '../../core/mfa/mfa-deps';
import { MfaSignInCompletion } from '../../core/mfa/sign-in-completion';
import { SetupTotp } from '../../core/mfa/setup-totp.use-case';
import { ConfirmTotp } from '../../core/mfa/confirm-totp.use-case';
import { DisableTotp } from '../../core/mfa/disable-totp.use-case';
import { VerifyMfa } from '../../core/mfa/verify-mfa.use-case';
import { SecondFactorThrottle } from '../../core/mfa/second-factor-throttle';

/**
 * Second factors: the TOTP factor and challenge stores, the sign-in completion every first-factor
 * login ends in, the use cases and the routes. Users, sessions, hashing, the throttle and the
 * issuer are the accounts module's bindings; the secret box is infrastructure's.
 */
export function mfaModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.MfaRepository).toDynamicValue((ctx) => new PostgresMfaRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.MfaChallengeStore).toDynamicValue((ctx) => new PostgresMfaChallengeStore(ctx.get(TOKENS.Database)));
    bind(TOKENS.TotpVerifier).toConstantValue(new OtpauthTotpVerifier());

    const deps = (ctx: ResolutionContext): MfaDeps => ({
      users: ctx.get(TOKENS.UserRepository),
      organizations: ctx.get(TOKENS.OrganizationRepository),
      sessions: ctx.get(TOKENS.SessionStore),
      mfa: ctx.get(TOKENS.MfaRepository),
      challenges: ctx.get(TOKENS.MfaChallengeStore),
      totp: ctx.get(TOKENS.TotpVerifier),
      atRestEncryption: ctx.get(TOKENS.AtRestEncryption),
      recoveryCodes: new NodeRecoveryCodeGenerator(),
      passwordHasher: ctx.get(TOKENS.PasswordHasher),
      tokenGenerator: ctx.get(TOKENS.TokenGenerator),
      tokenHasher: ctx.get(TOKENS.TokenHasher),
      rateLimiter: ctx.get(TOKENS.RateLimiter),
      clock: ctx.get(TOKENS.Clock),
      unitOfWork: ctx.get(TOKENS.UnitOfWork),
      audit: ctx.get(TOKENS.AuditLog),
      settings: { issuer: ctx.get(TOKENS.Config).appName },
      sessionIssuer: ctx.get(TOKENS.SessionIssuer),
      loginThrottle: ctx.get(TOKENS.LoginThrottle),
      secondFactorThrottle: new SecondFactorThrottle({ rateLimiter: ctx.get(TOKENS.RateLimiter) }),
      failedSignIns: ctx.get(TOKENS.FailedSignIns),
    });
    bind(TOKENS.SignInCompletion).toDynamicValue((ctx) => new MfaSignInCompletion(deps(ctx)));

    bind(TOKENS.MfaUseCases).toDynamicValue((ctx) => {
      const mfa = deps(ctx);
      return {
        setupTotp: new SetupTotp(mfa),
        confirmTotp: new ConfirmTotp(mfa),
        disableTotp: new DisableTotp(mfa),
        verifyMfa: new VerifyMfa(mfa),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      mfaRoutes(ctx.get(TOKENS.MfaUseCases), { session: ctx.get(TOKENS.SessionCookie), challenge: ctx.get(TOKENS.MfaChallengeCookie) }),
    );
  });
}
