import { callerRef, type Caller } from '../access/caller';
import type { OrganizationSettings } from '../accounts/user';
import { DomainError } from '../shared/domain-error';
import { requireRole } from '../access/require-role';
import type { OrganizationsDeps } from './organizations-deps';
import { organizationGone } from './organization-gone';

/**
 * Changes the keys given, and logs who changed what (settings decide who may do what). Overage
 * goes on only while the organization has a live subscription, held until the change is written,
 * so a subscription ending at that moment cannot leave it on: metered usage needs a subscription
 * to be invoiced on. Without one: CONFLICT (`reason: no_live_subscription`).
 */
export class UpdateOrganizationSettings {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'organizations' | 'meteredBilling' | 'unitOfWork' | 'logger'>) {}

  async execute(caller: Caller, changes: Partial<OrganizationSettings>): Promise<OrganizationSettings> {
    requireRole(caller, 'org_admin');
    const { organizations, meteredBilling, unitOfWork } = this.deps;
    const settings = await unitOfWork.transaction(async () => {
      if (changes.overageEnabled === true && !(await meteredBilling.holdLiveSubscription(caller.organizationId))) {
        throw new DomainError('CONFLICT', 'Overage needs a live subscription to be billed on: subscribe first', { reason: 'no_live_subscription' });
      }
      return organizations.updateSettings(caller.organizationId, changes);
    });
    if (!settings) throw organizationGone();
    this.deps.logger.info(
      { organization_id: caller.organizationId, caller: callerRef(caller), changes },
      'organization settings changed',
    );
    return settings;
  }
}
