import type { AccountsDeps } from './accounts-deps';
import { registerOwner, type OwnerSignupInput } from './register-owner';

export type SignupInput = OwnerSignupInput;

/** B2C signup: a personal organization with the new user as its `org_admin`. */
export class Signup {
  constructor(private readonly deps: Pick<AccountsDeps, 'organizations' | 'passwordHasher' | 'settings' | 'unitOfWork' | 'users' | 'clock' | 'outbox' | 'tokenGenerator' | 'tokenHasher' | 'tokens'>) {}

  execute(input: SignupInput): Promise<{ userId: number }> {
    return registerOwner(this.deps, this.deps.settings, input, null);
  }
}
