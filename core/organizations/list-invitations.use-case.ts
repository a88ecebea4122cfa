import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import type { Invitation } from './invitation';
import { requireRole } from '../access/require-role';

/**
 * The caller's organization's pending invitations (not accepted, not revoked, not expired) that
 * can still be accepted (their inviter still vouches for them), oldest first, a page at a time.
 * One whose inviter lost that authority is not listed: it would only be refused.
 */
export class ListInvitations {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'invitations' | 'clock'>) {}

  async execute(caller: Caller, page: PageRequest): Promise<Page<Invitation>> {
    requireRole(caller, 'org_admin');
    const now = this.deps.clock.now();
    return readPage(page, (window) => this.deps.invitations.listAcceptable(caller.organizationId, now, window));
  }
}
