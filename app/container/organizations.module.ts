import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import { accountsPorts } from './accounts.module';
import { organizationRoutes } from '../http/routes/organizations.routes';
import { PostgresInvitationRepository } from '../../adapters/postgres/postgres-invitation-repository';
import type { OrganizationsDeps } from '../../core/organizations/organizations-deps';
import { CreateOrganization } from '../../core/organizations/create-organization.use-case';
import { ListOrganizations } from '../../core/organizations/list-organizations.use-case';
import { SuspendOrganization } from '../../core/organizations/suspend-organization.use-case';
import { ActivateOrganization } from '../../core/organizations/activate-organization.use-case';
import { ListMembers } from '../../core/organizations/list-members.use-case';
import { ChangeMemberRole } from '../../core/organizations/change-member-role.use-case';
import { RemoveMember } from '../../core/organizations/remove-member.use-case';
import { CreateInvitation } from '../../core/organizations/create-invitation.use-case';
import { ListInvitations } from '../../core/organizations/list-invitations.use-case';
import { RevokeInvitation } from '../../core/organizations/revoke-invitation.use-case';
import { AcceptInvitation } from '../../core/organizations/accept-invitation.use-case';
import { CreateSystemAdmin } from '../../core/organizations/create-system-admin.use-case';
import { ActivateMember } from '../../core/organizations/activate-member.use-case';
import { SuspendMember } from '../../core/organizations/suspend-member.use-case';
import { GetOrganizationSettings } from '../../core/organizations/get-organization-settings.use-case';
import { UpdateOrganizationSettings } from '../../core/organizations/update-organization-settings.use-case';
import { settingsRoutes } from '../http/routes/settings.routes';

/**
 * Organizations, members (suspension included), invitations and settings: the invitation repository, the use cases (plus
 * CreateSystemAdmin for the CLI) and the routes. Users, organizations, sessions, hashing, the
 * outbox and the clock are the accounts module's bindings, taken as its `accountsPorts`.
 */
export function organizationsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.InvitationRepository).toDynamicValue((ctx) => new PostgresInvitationRepository(ctx.get(TOKENS.Database)));

    bind(TOKENS.OrganizationUseCases).toDynamicValue((ctx) => {
      // The accounts ports but the one-time tokens (no organizations use case issues or reads them).
      const { tokens: _tokens, ...accounts } = accountsPorts(ctx);
      const deps: OrganizationsDeps = {
        ...accounts,
        invitations: ctx.get(TOKENS.InvitationRepository),
        apiKeys: ctx.get(TOKENS.ApiKeyRepository),
        settings: ctx.get(TOKENS.AccountsSettings),
        logger: ctx.get(TOKENS.Logger),
        meteredBilling: ctx.get(TOKENS.SubscriptionRepository),
      };
      return {
        createOrganization: new CreateOrganization(deps),
        listOrganizations: new ListOrganizations(deps),
        suspendOrganization: new SuspendOrganization(deps),
        activateOrganization: new ActivateOrganization(deps),
        listMembers: new ListMembers(deps),
        changeMemberRole: new ChangeMemberRole(deps),
        removeMember: new RemoveMember(deps),
        suspendMember: new SuspendMember(deps),
        activateMember: new ActivateMember(deps),
        getOrganizationSettings: new GetOrganizationSettings(deps),
        updateOrganizationSettings: new UpdateOrganizationSettings(deps),
        createInvitation: new CreateInvitation(deps),
        listInvitations: new ListInvitations(deps),
        revokeInvitation: new RevokeInvitation(deps),
        acceptInvitation: new AcceptInvitation(deps),
        createSystemAdmin: new CreateSystemAdmin(deps),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      organizationRoutes(ctx.get(TOKENS.OrganizationUseCases), { baseApiUrl: ctx.get(TOKENS.Config).baseApiUrl }),
    );
    bind(TOKENS.Routes).toDynamicValue((ctx) => settingsRoutes(ctx.get(TOKENS.OrganizationUseCases)));
  });
}
