import { passwordResetEmail, signInLinkEmail, verificationEmail } from '../email/templates';
import { addSeconds } from '../shared/clock.port';
import { EMAIL_LINK_TTL_SECONDS, RESET_PASSWORD_TTL_SECONDS, VERIFY_EMAIL_TTL_SECONDS, type AccountsPorts, type AccountsSettings } from './accounts-deps';
import type { TokenPurpose } from './one-time-token-store.port';
import type { User } from './user';

const TEMPLATES = {
  verify_email: { ttl: VERIFY_EMAIL_TTL_SECONDS, render: verificationEmail, tag: 'verify-email' },
  reset_password: { ttl: RESET_PASSWORD_TTL_SECONDS, render: passwordResetEmail, tag: 'reset-password' },
  email_link_sign_in: { ttl: EMAIL_LINK_TTL_SECONDS, render: signInLinkEmail, tag: 'email-link-sign-in' },
} as const;

/**
 * Issues a fresh single-use token for `purpose` (revoking older ones: the latest link wins) and
 * enqueues the email carrying it. Must run inside the caller's transaction, so the token and
 * its email commit together.
 */
/** The ports sendTokenEmail uses. */
export type TokenEmailPorts = Pick<AccountsPorts, 'tokens' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'outbox'>;

export async function sendTokenEmail(
  ports: TokenEmailPorts,
  settings: Pick<AccountsSettings, 'appName' | 'baseWebUrl'>,
  user: Pick<User, 'id' | 'email'> & Partial<Pick<User, 'firstName'>>,
  purpose: TokenPurpose,
): Promise<void> {
  const template = TEMPLATES[purpose];
  const token = ports.tokenGenerator.generate();
  await ports.tokens.revokeAll(user.id, purpose);
  await ports.tokens.issue({
    userId: user.id,
    purpose,
    tokenHash: ports.tokenHasher.hash(token),
    expiresAt: addSeconds(ports.clock.now(), template.ttl),
  });
  const email = template.render({ appName: settings.appName, baseWebUrl: settings.baseWebUrl, token, firstName: user.firstName ?? null });
  await ports.outbox.enqueue({ to: user.email, ...email, tag: template.tag });
}
