import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { precedenceOf, ROLES, type RoleName } from '../../core/access/role';
import { AcceptInvitation } from '../../core/organizations/accept-invitation.use-case';
import { ChangeMemberRole } from '../../core/organizations/change-member-role.use-case';
import { CreateInvitation } from '../../core/organizations/create-invitation.use-case';
import { isAdministrator } from '../../core/organizations/membership-rules';
import { RemoveMember } from '../../core/organizations/remove-member.use-case';
import { DomainError } from '../../core/shared/domain-error';
import { organizationsHarness } from '../builders/organizations';

/** Random sequences of membership operations by random members (of two organizations) on random targets. */
type Operation =
  | { kind: 'change'; actor: number; target: number; role: RoleName }
  | { kind: 'remove'; actor: number; target: number }
  | { kind: 'invite'; actor: number; role: RoleName }
  | { kind: 'accept'; invitation: number };

const role = fc.constantFrom(...ROLES);
const index = fc.nat({ max: 20 });
const operation: fc.Arbitrary<Operation> = fc.oneof(
  fc.record({ kind: fc.constant('change' as const), actor: index, target: index, role }),
  fc.record({ kind: fc.constant('remove' as const), actor: index, target: index }),
  fc.record({ kind: fc.constant('invite' as const), actor: index, role }),
  fc.record({ kind: fc.constant('accept' as const), invitation: index }),
);
// Each organization starts with at least one administrator (as every real one does).
const organization = fc.tuple(fc.constantFrom<RoleName>('org_admin', 'sys_admin'), fc.array(role, { maxLength: 4 }));

const EXPECTED_REFUSALS = new Set(['ACCESS_DENIED', 'LAST_ORG_ADMIN', 'RESOURCE_NOT_FOUND', 'EMAIL_ALREADY_EXISTS', 'INVALID_TOKEN']);

interface Member {
  userId: number;
  token: string;
}

async function run(organizations: Array<[RoleName, RoleName[]]>, operations: Operation[]): Promise<void> {
  const h = organizationsHarness();
  const change = new ChangeMemberRole(h.orgPorts);
  const remove = new RemoveMember(h.orgPorts);
  const invite = new CreateInvitation(h.orgDeps);
  const accept = new AcceptInvitation(h.orgPorts);
  const members: Member[] = [];
  const organizationIds: number[] = [];
  const invitationTokens: string[] = [];
  for (const [first, rest] of organizations) {
    const { organizationId, users } = await h.anOrganization([first, ...rest]);
    organizationIds.push(organizationId);
    for (const user of users) members.push({ userId: user.id, token: (await h.loginAs(user)).token });
  }
  const pick = <T>(list: T[], i: number): T | undefined => list[i % Math.max(1, list.length)];

  for (const [step, op] of operations.entries()) {
    const actor = 'actor' in op ? pick(members, op.actor) : undefined;
    // The caller as every request sees it: freshly authenticated from its session.
    const caller = actor ? await h.authenticate(actor.token) : undefined;
    const target = 'target' in op ? pick(members, op.target) : undefined;
    let outcome: unknown;
    try {
      if (op.kind === 'change' && caller && target) outcome = await change.execute(caller, { userId: target.userId, role: op.role });
      if (op.kind === 'remove' && caller && target) outcome = await remove.execute(caller, { userId: target.userId });
      if (op.kind === 'invite' && caller) outcome = await invite.execute(caller, { email: `invitee-${step}@example.com`, role: op.role });
      if (op.kind === 'accept') {
        const token = pick(invitationTokens, op.invitation);
        if (!token) continue;
        const { userId } = await accept.execute({ token, password: 'password-123' });
        const user = (await h.ports.users.findById(userId))!;
        members.push({ userId, token: (await h.loginAs(user)).token });
        continue;
      }
    } catch (error) {
      if (!(error instanceof DomainError) || !EXPECTED_REFUSALS.has(error.code)) throw error;
      continue;
    }
    if (!caller) continue;
    // Nobody grants or invites a role above their own; an org_admin never grants sys_admin.
    if (op.kind === 'change' || op.kind === 'invite') {
      expect(precedenceOf(op.role)).toBeLessThanOrEqual(precedenceOf(caller.role));
      if (op.role === 'sys_admin') expect(caller.role).toBe('sys_admin');
    }
    if (op.kind === 'invite') invitationTokens.push(await h.invitationToken(`invitee-${step}@example.com`));
    // A removed member's sessions die at once.
    if (op.kind === 'remove' && target) {
      expect(outcome).toBeUndefined();
      await expect(h.authenticate(target.token)).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
      members.splice(members.indexOf(target), 1);
    }
    // No organization ever loses its last administrator.
    for (const organizationId of organizationIds) {
      const roles = (await h.ports.users.listByOrganization(organizationId)).map((u) => u.role);
      expect(roles.some(isAdministrator)).toBe(true);
    }
  }
}

describe('membership invariants under random operation sequences', () => {
  it('keep an administrator in every organization, never grant above the granter, and kill removed sessions', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(organization, { minLength: 1, maxLength: 2 }), fc.array(operation, { maxLength: 40 }), run),
      { numRuns: 150 },
    );
  });
});
