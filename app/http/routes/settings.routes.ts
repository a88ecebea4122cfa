import { defineRoute, type AnyRoute } from '../route';
import { OrganizationSettingsRequest, OrganizationSettingsResponse } from '../schemas/security.schemas';
import type { OrganizationSettings } from '../../../core/accounts/user';
import type { GetOrganizationSettings, UpdateOrganizationSettings } from '../../../core/organizations/organization-settings.use-case';

export interface SettingsUseCases {
  getOrganizationSettings: GetOrganizationSettings;
  updateOrganizationSettings: UpdateOrganizationSettings;
}

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
      responses: { 200: { description: 'The settings', schema: OrganizationSettingsResponse } },
      handler: async ({ caller }) => ({ status: 200, body: view(await useCases.getOrganizationSettings.execute(caller)) }),
    }),
    defineRoute({
      method: 'put',
      path: '/settings/organization',
      tag: 'Settings',
      operationId: 'updateOrganizationSettings',
      summary: 'Change any of the settings; unknown keys are refused',
      description: "Changes any of the settings sent; unknown keys or wrong types are 422. With `require_mfa` on, members without MFA get 403 `MFA_REQUIRED` on every route but their account, session and MFA routes. Each change is logged with who made it.",
      access: 'org_admin',
      body: OrganizationSettingsRequest,
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
