import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import type { RateLimiter } from '../../core/shared/rate-limiter.port';
import type { Database } from '../../adapters/postgres/database';
import { PostgresInvitationRepository } from '../../adapters/postgres/postgres-invitation-repository';
import type { AccountsSettings } from '../../core/accounts/accounts-ports';
import type { OrganizationsPorts } from '../../core/organizations/organizations-ports';
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
import { organizationRoutes, type OrganizationUseCases } from '../http/routes/organizations.routes';

/**
 * Organizations, members and invitations. Builds on the accounts bindings (repositories, session
 * store, hashing, tokens, outbox, clock, unit of work); adds the invitation repository, the use
 * cases (plain classes, built here), the routes, and CreateSystemAdmin for the CLI.
 */
export function organizationsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.InvitationRepository).toDynamicValue((ctx) => new PostgresInvitationRepository(ctx.get<Database>(TOKENS.Database)));
    bind<OrganizationsPorts>(TOKENS.OrganizationsPorts).toDynamicValue((ctx) => ({
      users: ctx.get(TOKENS.UserRepository),
      organizations: ctx.get(TOKENS.OrganizationRepository),
      sessions: ctx.get(TOKENS.SessionStore),
      invitations: ctx.get(TOKENS.InvitationRepository),
      passwordHasher: ctx.get(TOKENS.PasswordHasher),
      tokenGenerator: ctx.get(TOKENS.TokenGenerator),
      tokenHasher: ctx.get(TOKENS.TokenHasher),
      clock: ctx.get(TOKENS.Clock),
      outbox: ctx.get(TOKENS.EmailOutbox),
      unitOfWork: ctx.get(TOKENS.UnitOfWork),
    }));
    bind<OrganizationUseCases>(TOKENS.OrganizationUseCases).toDynamicValue((ctx) => {
      const ports = ctx.get<OrganizationsPorts>(TOKENS.OrganizationsPorts);
      const settings = ctx.get<AccountsSettings>(TOKENS.AccountsSettings);
      return {
        createOrganization: new CreateOrganization(ports, settings),
        listOrganizations: new ListOrganizations(ports.organizations),
        suspendOrganization: new SuspendOrganization(ports.organizations),
        activateOrganization: new ActivateOrganization(ports.organizations),
        listMembers: new ListMembers(ports.users),
        changeMemberRole: new ChangeMemberRole(ports),
        removeMember: new RemoveMember(ports),
        createInvitation: new CreateInvitation(ports, settings, ctx.get<RateLimiter>(TOKENS.RateLimiter)),
        listInvitations: new ListInvitations(ports),
        revokeInvitation: new RevokeInvitation(ports),
        acceptInvitation: new AcceptInvitation(ports),
      };
    });
    bind(TOKENS.CreateSystemAdmin).toDynamicValue((ctx) => new CreateSystemAdmin(ctx.get<OrganizationsPorts>(TOKENS.OrganizationsPorts)));
    bind(TOKENS.Routes).toDynamicValue((ctx) => organizationRoutes(ctx.get<OrganizationUseCases>(TOKENS.OrganizationUseCases)));
  });
}
