import type { AccountsPorts, AccountsSettings } from './accounts-ports';
import { registerOwner, type OwnerSignupInput } from './register-owner';

export type SignupInput = OwnerSignupInput;

/** B2C signup: a personal organization with the new user as its `org_admin`. */
export class Signup {
  constructor(
    private readonly ports: AccountsPorts,
    private readonly settings: AccountsSettings,
  ) {}

  execute(input: SignupInput): Promise<{ userId: number }> {
    return registerOwner(this.ports, this.settings, input, null);
  }
}
