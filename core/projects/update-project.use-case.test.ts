import { seededPlansQuota } from '../../test/builders/plans';
import { describe, expect, it } from 'vitest';
import { InMemoryProjectRepository, InMemoryStore } from '../../test/builders/adapters';
import { FakeClock } from '../../test/support/fake-clock';
import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import { CreateProject } from './create-project.use-case';
import { UpdateProject } from './update-project.use-case';

const caller = (role: RoleName, organizationId = 1, userId = 10): Caller => ({ userId, organizationId, role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const });

async function setup() {
  const projects = new InMemoryProjectRepository(new InMemoryStore());
  const clock = new FakeClock('2026-11-21T10:00:00.000Z');
  const project = await new CreateProject({ projects, quota: seededPlansQuota(), clock }).execute(caller('member'), { name: 'Apollo', description: 'moon' });
  clock.advance(60_000);
  return { projects, clock, project, updateProject: new UpdateProject({ projects, clock }) };
}

describe('UpdateProject', () => {
  it('changes the given fields, stamps updatedAt from the clock and keeps createdAt', async () => {
    const { projects, project, updateProject } = await setup();
    const updated = await updateProject.execute(caller('member', 1, 11), { id: project.id, name: 'Artemis', description: 'again' });
    expect(updated).toEqual({
      ...project,
      name: 'Artemis',
      description: 'again',
      updatedAt: new Date('2026-11-21T10:01:00.000Z'),
    });
    expect(await projects.findById(1, project.id)).toEqual(updated);
  });

  it('leaves a field that is omitted or null unchanged, yet still counts as an update', async () => {
    const { project, updateProject } = await setup();
    const omitted = await updateProject.execute(caller('member'), { id: project.id });
    expect(omitted).toMatchObject({ name: 'Apollo', description: 'moon', updatedAt: new Date('2026-11-21T10:01:00.000Z') });
    const nulls = await updateProject.execute(caller('member'), { id: project.id, name: null, description: null });
    expect(nulls).toMatchObject({ name: 'Apollo', description: 'moon' });
  });

  it('changes one field without touching the other', async () => {
    const { project, updateProject } = await setup();
    await expect(updateProject.execute(caller('member'), { id: project.id, description: '' })).resolves.toMatchObject({
      name: 'Apollo',
      description: '',
    });
  });

  it("answers another organization's project as missing and leaves it alone", async () => {
    const { projects, project, updateProject } = await setup();
    await expect(updateProject.execute(caller('org_admin', 2, 20), { id: project.id, name: 'stolen' })).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      details: { resource: 'project', resource_id: project.id },
    });
    expect(await projects.findById(1, project.id)).toEqual(project);
  });

  it('answers a missing project with RESOURCE_NOT_FOUND', async () => {
    const { updateProject } = await setup();
    await expect(updateProject.execute(caller('member'), { id: 999, name: 'x' })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('refuses a readonly caller and changes nothing', async () => {
    const { projects, project, updateProject } = await setup();
    await expect(updateProject.execute(caller('readonly'), { id: project.id, name: 'x' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await projects.findById(1, project.id)).toEqual(project);
  });
});
