import type { AccountsDeps } from './accounts-deps';
import { DomainError } from '../shared/domain-error';
import type { UserCaller } from '../access/caller';
import type { Organization, User } from './user';

export interface CurrentUser {
  user: User;
  organization: Organization;
}

export class GetCurrentUser {
  constructor(private readonly deps: Pick<AccountsDeps, 'users' | 'organizations'>) {}

  async execute(caller: UserCaller): Promise<CurrentUser> {
    const user = await this.deps.users.findById(caller.userId);
    const organization = user ? await this.deps.organizations.findById(user.organizationId) : null;
    if (!user || !organization) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    return { user, organization };
  }
}
