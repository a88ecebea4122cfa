import type { AccountsPorts, AccountsSettings } from './accounts-ports';
import { registerOwner, type OwnerSignupInput } from './register-owner';

export interface SignupOrganizationInput extends OwnerSignupInput {
  organizationName: string;
}

/** B2C signup of a named organization with the new user as its `org_admin`. */
export class SignupOrganization {
  constructor(
    private readonly ports: AccountsPorts,
    private readonly settings: AccountsSettings,
  ) {}

  execute(input: SignupOrganizationInput): Promise<{ userId: number }> {
    return registerOwner(this.ports, this.settings, input, input.organizationName.trim());
  }
}
