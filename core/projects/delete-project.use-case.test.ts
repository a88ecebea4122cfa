import { seededPlansQuota } from '../../test/builders/plans';
import { describe, expect, it } from 'vitest';
import { InMemoryProjectRepository, InMemoryStore } from '../../test/builders/adapters';
import { FakeClock } from '../../test/support/fake-clock';
import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import { CreateProject } from './create-project.use-case';
import { DeleteProject } from './delete-project.use-case';

const caller = (role: RoleName, organizationId = 1, userId = 10): Caller => ({ userId, organizationId, role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const });

async function setup() {
  const projects = new InMemoryProjectRepository(new InMemoryStore());
  const project = await new CreateProject({ projects, quota: seededPlansQuota(), clock: new FakeClock() }).execute(caller('member'), { name: 'Apollo' });
  return { projects, project, deleteProject: new DeleteProject({ projects }) };
}

describe('DeleteProject', () => {
  it('deletes a project of the caller organization', async () => {
    const { projects, project, deleteProject } = await setup();
    await expect(deleteProject.execute(caller('member', 1, 11), { id: project.id })).resolves.toBeUndefined();
    expect(await projects.findById(1, project.id)).toBeNull();
  });

  it('checks existence first: deleting twice answers RESOURCE_NOT_FOUND the second time', async () => {
    const { project, deleteProject } = await setup();
    await deleteProject.execute(caller('member'), { id: project.id });
    await expect(deleteProject.execute(caller('member'), { id: project.id })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource: 'project', resource_id: project.id },
    });
  });

  it("answers another organization's project as missing and keeps it", async () => {
    const { projects, project, deleteProject } = await setup();
    await expect(deleteProject.execute(caller('sys_admin', 2, 20), { id: project.id })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    expect(await projects.findById(1, project.id)).toEqual(project);
  });

  it('refuses a readonly caller and keeps the project', async () => {
    const { projects, project, deleteProject } = await setup();
    await expect(deleteProject.execute(caller('readonly'), { id: project.id })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await projects.findById(1, project.id)).toEqual(project);
  });
});
