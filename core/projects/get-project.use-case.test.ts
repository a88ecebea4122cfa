import { seededPlansQuota } from '../../test/builders/plans';
import { describe, expect, it } from 'vitest';
import { InMemoryProjectRepository, InMemoryStore } from '../../test/builders/adapters';
import { FakeClock } from '../../test/support/fake-clock';
import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import { DomainError } from '../shared/domain-error';
import { CreateProject } from './create-project.use-case';
import { GetProject } from './get-project.use-case';

const caller = (role: RoleName, organizationId = 1, userId = 10): Caller => ({ userId, organizationId, role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const });

function setup() {
  const projects = new InMemoryProjectRepository(new InMemoryStore());
  return { createProject: new CreateProject({ projects, quota: seededPlansQuota(), clock: new FakeClock() }), getProject: new GetProject({ projects }) };
}

describe('GetProject', () => {
  it('returns a project of the caller organization, to any role', async () => {
    const { createProject, getProject } = setup();
    const created = await createProject.execute(caller('member'), { name: 'Apollo' });
    await expect(getProject.execute(caller('readonly', 1, 11), { id: created.id })).resolves.toEqual(created);
  });

  it('answers a missing project with RESOURCE_NOT_FOUND naming it', async () => {
    const { getProject } = setup();
    const failure = getProject.execute(caller('member'), { id: 42 });
    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource: 'project', resource_id: 42 },
    });
  });

  it("answers another organization's project exactly like a missing one", async () => {
    const { createProject, getProject } = setup();
    const theirs = await createProject.execute(caller('member', 2, 20), { name: 'secret' });
    await expect(getProject.execute(caller('sys_admin', 1), { id: theirs.id })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: 'Project not found',
      details: { resource: 'project', resource_id: theirs.id },
    });
  });
});
