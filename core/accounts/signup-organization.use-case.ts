import type { AccountsDeps } from './accounts-deps';
import { registerOwner, type OwnerSignupInput } from './register-owner';

export interface SignupOrganizationInput extends OwnerSignupInput {
  organizationName: string;
}

/** B2C signup of a named organization with the new user as its `org_admin`. */
export class SignupOrganization {
  constructor(private readonly deps: Pick<AccountsDeps, 'organizations' | 'passwordHasher' | 'settings' | 'unitOfWork' | 'users' | 'clock' | 'outbox' | 'tokenGenerator' | 'tokenHasher' | 'tokens'>) {}

  execute(input: SignupOrganizationInput): Promise<{ userId: number }> {
    return registerOwner(this.deps, this.deps.settings, input, input.organizationName.trim());
  }
}
