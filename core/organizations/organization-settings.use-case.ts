import type { Caller } from '../access/caller';
import type { OrganizationSettings } from '../accounts/user';
import { DomainError } from '../shared/domain-error';
import { requireRole } from '../access/require-role';
import type { OrganizationsDeps } from './organizations-deps';

const missing = () => new DomainError('UNAUTHORIZED', 'Authentication required');

/** The caller's organization's settings (org_admin). */
export class GetOrganizationSettings {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'organizations'>) {}

  async execute(caller: Caller): Promise<OrganizationSettings> {
    requireRole(caller, 'org_admin');
    const settings = await this.deps.organizations.findSettings(caller.organizationId);
    if (!settings) throw missing();
    return settings;
  }
}

/** Changes the keys given, and logs who changed what (settings decide who may do what). */
export class UpdateOrganizationSettings {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'organizations' | 'logger'>) {}

  async execute(caller: Caller, changes: Partial<OrganizationSettings>): Promise<OrganizationSettings> {
    requireRole(caller, 'org_admin');
    const settings = await this.deps.organizations.updateSettings(caller.organizationId, changes);
    if (!settings) throw missing();
    this.deps.logger.info(
      { organization_id: caller.organizationId, user_id: caller.userId, changes },
      'organization settings changed',
    );
    return settings;
  }
}
