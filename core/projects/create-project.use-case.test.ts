import { seededPlansQuota } from '../../test/builders/plans';
import { describe, expect, it } from 'vitest';
import { InMemoryProjectRepository, InMemoryStore } from '../../test/builders/adapters';
import { FakeClock } from '../../test/support/fake-clock';
import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import { CreateProject } from './create-project.use-case';

const caller = (role: RoleName, organizationId = 1, userId = 10): Caller => ({ userId, organizationId, role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const });

function setup() {
  const projects = new InMemoryProjectRepository(new InMemoryStore());
  const clock = new FakeClock('2026-11-21T10:00:00.000Z');
  return { projects, clock, createProject: new CreateProject({ projects, quota: seededPlansQuota(), clock }) };
}

describe('CreateProject', () => {
  it('stores the project in the caller organization, owned by the caller, stamped by the clock', async () => {
    const { projects, createProject } = setup();
    const project = await createProject.execute(caller('member', 7, 70), { name: 'Apollo', description: 'to the moon' });
    expect(project).toEqual({
      id: expect.any(Number),
      organizationId: 7,
      userId: 70,
      name: 'Apollo',
      description: 'to the moon',
      createdAt: new Date('2026-11-21T10:00:00.000Z'),
      updatedAt: new Date('2026-11-21T10:00:00.000Z'),
    });
    expect(await projects.findById(7, project.id)).toEqual(project);
  });

  it('defaults the description to null, whether omitted or null', async () => {
    const { createProject } = setup();
    expect((await createProject.execute(caller('member'), { name: 'a' })).description).toBeNull();
    expect((await createProject.execute(caller('member'), { name: 'b', description: null })).description).toBeNull();
  });

  it.each(['member', 'org_admin', 'sys_admin'] as const)('lets a %s create', async (role) => {
    const { createProject } = setup();
    await expect(createProject.execute(caller(role), { name: 'x' })).resolves.toMatchObject({ name: 'x' });
  });

  it('refuses a readonly caller and stores nothing', async () => {
    const { projects, createProject } = setup();
    await expect(createProject.execute(caller('readonly'), { name: 'x' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await projects.list(1)).toEqual([]);
  });
});
