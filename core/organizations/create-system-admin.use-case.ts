import type { OrganizationsDeps } from './organizations-deps';
import { isValidPassword, PASSWORD_MAX, PASSWORD_MIN } from '../accounts/password-policy';
import { normalizeEmail } from '../accounts/user';
import { DomainError } from '../shared/domain-error';

export const SYSTEM_ORGANIZATION_NAME = 'System';

export type CreateSystemAdminResult = { outcome: 'created' | 'exists'; userId: number; email: string };

/**
 * Bootstraps a sys_admin (the only way to get one besides an invitation from another sys_admin):
 * a verified user in a new organization of its own named "System", so no tenant's organization
 * ever holds a sys_admin. Idempotent for an address that already is a sys_admin; an address that
 * belongs to anyone else is refused (EMAIL_ALREADY_EXISTS), never promoted.
 */
export class CreateSystemAdmin {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'users' | 'organizations' | 'passwordHasher' | 'unitOfWork'>) {}

  async execute(input: { email: string; password: string }): Promise<CreateSystemAdminResult> {
    const email = normalizeEmail(input.email);
    const existing = await this.deps.users.findByEmail(email);
    if (existing) return this.alreadyThere(existing.id, existing.role, email);
    if (!isValidPassword(input.password)) {
      // Read in a terminal, not by a form: the message itself must say what is wrong.
      const message = `The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters`;
      throw new DomainError('VALIDATION_ERROR', message, { password: message });
    }
    const passwordHash = await this.deps.passwordHasher.hash(input.password);
    return this.deps.unitOfWork.transaction(async () => {
      const raced = await this.deps.users.findByEmail(email);
      if (raced) return this.alreadyThere(raced.id, raced.role, email);
      const organization = await this.deps.organizations.create({ name: SYSTEM_ORGANIZATION_NAME });
      const user = await this.deps.users.create({
        organizationId: organization.id,
        email,
        passwordHash,
        firstName: null,
        lastName: null,
        role: 'sys_admin',
        emailVerified: true,
      });
      return { outcome: 'created', userId: user.id, email };
    });
  }

  private alreadyThere(userId: number, role: string, email: string): CreateSystemAdminResult {
    if (role !== 'sys_admin') {
      throw new DomainError('EMAIL_ALREADY_EXISTS', `${email} already has an account with the ${role} role; it is not made a sys_admin`, {
        role,
      });
    }
    return { outcome: 'exists', userId, email };
  }
}
