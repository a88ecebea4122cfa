import { DomainError } from '../shared/domain-error';
import { sendTokenEmail, type TokenEmailPorts } from './account-emails';
import type { AccountsPorts, AccountsSettings } from './accounts-deps';
import { assertValidPassword } from './password-policy';
import { normalizeEmail } from './user';

export interface OwnerSignupInput {
  email: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
}

/**
 * Shared by Signup and SignupOrganization: a new organization, its first user as `org_admin`
 * (unverified), and the verification email, all in one transaction. Public signup exists only
 * in B2C; in B2B accounts are created by invitation.
 */
/** The ports registerOwner uses. */
export type RegisterOwnerPorts = Pick<AccountsPorts, 'users' | 'organizations' | 'passwordHasher' | 'unitOfWork'> & TokenEmailPorts;

export async function registerOwner(
  ports: RegisterOwnerPorts,
  settings: AccountsSettings,
  input: OwnerSignupInput,
  organizationName: string | null,
): Promise<{ userId: number }> {
  if (settings.mode !== 'b2c') throw new DomainError('SIGNUP_CLOSED', 'Accounts are created by invitation only');
  assertValidPassword(input.password, 'password');
  const email = normalizeEmail(input.email);
  const passwordHash = await ports.passwordHasher.hash(input.password);
  return ports.unitOfWork.transaction(async () => {
    if (await ports.users.findByEmail(email)) {
      throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
    }
    const organization = await ports.organizations.create({ name: organizationName ?? personalOrganizationName(input, email) });
    const user = await ports.users.create({
      organizationId: organization.id,
      email,
      passwordHash,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      role: 'org_admin',
      emailVerified: false,
    });
    await sendTokenEmail(ports, settings, user, 'verify_email');
    return { userId: user.id };
  });
}

function personalOrganizationName(input: OwnerSignupInput, email: string): string {
  const name = [input.firstName, input.lastName].filter(Boolean).join(' ').trim();
  return [...`${name || email}'s organization`].slice(0, 200).join(''); // code points: never split a surrogate pair
}
