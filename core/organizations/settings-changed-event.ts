import type { OrganizationSettings } from '../accounts/user';
import type { AuditActor, AuditOrigin, NewAuditEvent } from '../audit/audit-event';

/** Each setting under the name the API gives it, which is also the name its audit events use. */
const SETTING_NAMES: Record<keyof OrganizationSettings, string> = {
  overageEnabled: 'overage_enabled',
  requireMfa: 'require_mfa',
};

/**
 * The `organization.settings_changed` event for a write that took the settings from `before` to
 * `after`: `{from, to}` hold the settings that changed, and only those. Null when none changed (a
 * write of the values already set is no change, so it records nothing).
 */
export function settingsChangedEvent(
  organizationId: number,
  before: OrganizationSettings,
  after: OrganizationSettings,
  by: { actor: AuditActor; origin: AuditOrigin },
): NewAuditEvent | null {
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  for (const key of Object.keys(SETTING_NAMES) as (keyof OrganizationSettings)[]) {
    if (before[key] === after[key]) continue;
    from[SETTING_NAMES[key]] = before[key];
    to[SETTING_NAMES[key]] = after[key];
  }
  if (Object.keys(to).length === 0) return null;
  return {
    organizationId,
    action: 'organization.settings_changed',
    actor: by.actor,
    target: { type: 'organization', id: String(organizationId) },
    origin: by.origin,
    details: { from, to },
  };
}
