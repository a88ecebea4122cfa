import { defineRoute, type AnyRoute } from '../route';
import { OrganizationSettingsRequest, OrganizationSettingsResponse } from '../schemas/security.schemas';
import type { OrganizationSettings } from '../../../core/accounts/user';
import type { GetOrganizationSettings } from '../../../core/organizations/get-organization-settings.use-case';
import type { UpdateOrganizationSettings } from '../../../core/organizations/update-organization-settings.use-case';
import type { GetSystemSettings } from '../../../core/ai/get-system-settings.use-case';
import type { UpdateSystemSettings } from '../../../core/ai/update-system-settings.use-case';
import type { SystemSettings } from '../../../core/ai/system-settings.port';
import { SystemSettingsRequest, SystemSettingsResponse } from '../schemas/ai.schemas';

export interface SettingsUseCases {
  getOrganizationSettings: GetOrganizationSettings;
  updateOrganizationSettings: UpdateOrganizationSettings;
}

export interface SystemSettingsUseCases {
  getSystemSettings: GetSystemSettings;
  updateSystemSettings: UpdateSystemSettings;
}

const systemView = (settings: SystemSettings) => ({ ai_overage_enabled: settings.aiOverageEnabled });

const view = (settings: OrganizationSettings) => ({ overage_enabled: settings.overageEnabled, require_mfa: settings.requireMfa });

/** The caller's organization's switches (org_admin). */
export function settingsRoutes(useCases: SettingsUseCases): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/settings/organization',
      tag: 'Settings',
      operationId: 'getOrganizationSettings',
      summary: "The caller's organization's settings",
      description: "The caller's organization's settings: `overage_enabled` and `require_mfa`.",
      access: 'org_admin',
      apiKeys: 'accepted',
      responses: { 200: { description: 'The settings', schema: OrganizationSettingsResponse } },
      handler: async ({ caller }) => ({ status: 200, body: view(await useCases.getOrganizationSettings.execute(caller)) }),
    }),
    defineRoute({
      method: 'put',
      path: '/settings/organization',
      tag: 'Settings',
      operationId: 'updateOrganizationSettings',
      summary: 'Change any of the settings; unknown keys are refused',
      description:
        "Changes any of the settings sent; unknown keys or wrong types are 422. `overage_enabled` may be switched on only while the organization has a live subscription (active, trialing, past_due) to bill the overage on, else 409 `CONFLICT` (`reason: no_live_subscription`); it goes off by itself when the subscription ends. With `require_mfa` on, members without MFA get 403 `MFA_REQUIRED` on every route but their account, session and MFA routes. Each change is logged with who made it.",
      access: 'org_admin',
      apiKeys: 'accepted',
      body: OrganizationSettingsRequest,
      errors: ['CONFLICT'],
      responses: { 200: { description: 'The settings after the change', schema: OrganizationSettingsResponse } },
      handler: async ({ caller, body }) => {
        const changes: Partial<OrganizationSettings> = {};
        if (body.overage_enabled !== undefined) changes.overageEnabled = body.overage_enabled;
        if (body.require_mfa !== undefined) changes.requireMfa = body.require_mfa;
        return { status: 200, body: view(await useCases.updateOrganizationSettings.execute(caller, changes)) };
      },
    }),
  ];
}

/** The deployment's switches (sys_admin). */
export function systemSettingsRoutes(useCases: SystemSettingsUseCases): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/settings/system',
      tag: 'Settings',
      operationId: 'getSystemSettings',
      summary: "The deployment's settings",
      description: '`ai_overage_enabled`: whether organizations that turn on their own `overage_enabled` may use AI beyond their capacity, billed as overage. Off by default.',
      access: 'sys_admin',
      apiKeys: 'refused',
      responses: { 200: { description: 'The settings', schema: SystemSettingsResponse } },
      handler: async ({ caller }) => ({ status: 200, body: systemView(await useCases.getSystemSettings.execute(caller)) }),
    }),
    defineRoute({
      method: 'put',
      path: '/settings/system',
      tag: 'Settings',
      operationId: 'updateSystemSettings',
      summary: 'Change any of the deployment’s settings; unknown keys are refused',
      description: 'Changes any of the settings sent; unknown keys or wrong types are 422. Each change is logged with who made it.',
      access: 'sys_admin',
      apiKeys: 'refused',
      body: SystemSettingsRequest,
      responses: { 200: { description: 'The settings after the change', schema: SystemSettingsResponse } },
      handler: async ({ caller, body }) => {
        const changes: Partial<SystemSettings> = {};
        if (body.ai_overage_enabled !== undefined) changes.aiOverageEnabled = body.ai_overage_enabled;
        return { status: 200, body: systemView(await useCases.updateSystemSettings.execute(caller, changes)) };
      },
    }),
  ];
}
