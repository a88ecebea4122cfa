import { callerRef, type Caller } from '../access/caller';
import type { OrganizationSettings } from '../accounts/user';
import { DomainError } from '../shared/domain-error';
import { requireRole } from '../access/require-role';
import type { OrganizationsDeps } from './organizations-deps';
import { organizationGone } from './organization-gone';
import { settingsChangedEvent } from './settings-changed-event';
import { auditActor, auditOrigin } from '../audit/audit-actor';

/**
 * Changes the keys given, and logs who changed what (settings decide who may do what). Overage
 * goes on only while the organization has a live subscription, held until the change is written,
 * so a subscription ending at that moment cannot leave it on: metered usage needs a subscription
 * to be invoiced on. Without one: CONFLICT (`reason: no_live_subscription`). The settings that
 * actually changed commit with their `organization.settings_changed` event (`{from, to}`).
 */
export class UpdateOrganizationSettings {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'organizations' | 'meteredBilling' | 'unitOfWork' | 'logger' | 'audit'>) {}

  async execute(caller: Caller, changes: Partial<OrganizationSettings>): Promise<OrganizationSettings> {
    requireRole(caller, 'org_admin');
    const { organizations, meteredBilling, unitOfWork, audit } = this.deps;
    const settings = await unitOfWork.transaction(async () => {
      // Held first, as the billing webhook holds it before the subscription: `before` is then
      // what this write changes, not what a concurrent one left, and the two never deadlock.
      await organizations.lock(caller.organizationId);
      if (changes.overageEnabled === true && !(await meteredBilling.holdLiveSubscription(caller.organizationId))) {
        throw new DomainError('CONFLICT', 'Overage needs a live subscription to be billed on: subscribe first', { reason: 'no_live_subscription' });
      }
      const before = await organizations.findSettings(caller.organizationId);
      const after = before && (await organizations.updateSettings(caller.organizationId, changes));
      if (!before || !after) return null;
      const event = settingsChangedEvent(caller.organizationId, before, after, { actor: auditActor(caller), origin: auditOrigin(caller) });
      if (event) await audit.record(event);
      return after;
    });
    if (!settings) throw organizationGone();
    this.deps.logger.info(
      { organization_id: caller.organizationId, caller: callerRef(caller), changes },
      'organization settings changed',
    );
    return settings;
  }
}
