import type { AccountsPorts, AccountsSettings } from '../accounts/accounts-ports';
import type { InvitationRepository } from './invitation-repository.port';

/** The accounts ports plus invitations; each use case takes the `Pick` it needs. */
export interface OrganizationsPorts extends Omit<AccountsPorts, 'tokens'> {
  invitations: InvitationRepository;
}

/** What the invitation email needs to build its link. */
export type InvitationSettings = Pick<AccountsSettings, 'appName' | 'baseWebUrl'>;
