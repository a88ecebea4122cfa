import type { Caller } from '../access/caller';
import type { OrganizationSettings } from '../accounts/user';
import { requireRole } from '../access/require-role';
import type { OrganizationsDeps } from './organizations-deps';
import { organizationGone } from './organization-gone';

/** The caller's organization's settings (org_admin). */
export class GetOrganizationSettings {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'organizations'>) {}

  async execute(caller: Caller): Promise<OrganizationSettings> {
    requireRole(caller, 'org_admin');
    const settings = await this.deps.organizations.findSettings(caller.organizationId);
    if (!settings) throw organizationGone();
    return settings;
  }
}
