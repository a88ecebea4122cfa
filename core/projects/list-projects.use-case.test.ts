import { seededPlansQuota } from '../../test/builders/plans';
import { describe, expect, it } from 'vitest';
import { InMemoryProjectRepository, InMemoryStore } from '../../test/builders/adapters';
import { FakeClock } from '../../test/support/fake-clock';
import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import { encodeListCursor } from '../shared/list-page';
import { CreateProject } from './create-project.use-case';
import { ListProjects } from './list-projects.use-case';

const caller = (role: RoleName, organizationId = 1, userId = 10): Caller => ({ userId, organizationId, role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const });

/** Five projects of organization 1, a minute apart (p1 oldest), and one of organization 2. */
async function setup() {
  const projects = new InMemoryProjectRepository(new InMemoryStore());
  const clock = new FakeClock();
  const createProject = new CreateProject({ projects, quota: seededPlansQuota(), clock });
  const ours = [];
  for (const name of ['p1', 'p2', 'p3', 'p4', 'p5']) {
    ours.push(await createProject.execute(caller('member'), { name }));
    clock.advance(60_000);
  }
  await createProject.execute(caller('member', 2, 20), { name: 'theirs' });
  return { projects, clock, createProject, listProjects: new ListProjects({ projects }) };
}

const names = (page: { items: Array<{ name: string }> }) => page.items.map((p) => p.name);

describe('ListProjects', () => {
  it("lists only the caller organization's projects, newest first", async () => {
    const { listProjects } = await setup();
    const page = await listProjects.execute(caller('readonly'), { limit: 10 });
    expect(names(page)).toEqual(['p5', 'p4', 'p3', 'p2', 'p1']);
    expect(page.nextCursor).toBeNull();
  });

  it('pages with a limit and the returned cursor until nothing remains', async () => {
    const { listProjects } = await setup();
    const first = await listProjects.execute(caller('member'), { limit: 2 });
    expect(names(first)).toEqual(['p5', 'p4']);
    const second = await listProjects.execute(caller('member'), { limit: 2, cursor: first.nextCursor! });
    expect(names(second)).toEqual(['p3', 'p2']);
    const third = await listProjects.execute(caller('member'), { limit: 2, cursor: second.nextCursor! });
    expect(names(third)).toEqual(['p1']);
    expect(third.nextCursor).toBeNull();
  });

  it('gives no cursor when the page ends exactly at the last project', async () => {
    const { listProjects } = await setup();
    expect((await listProjects.execute(caller('member'), { limit: 5 })).nextCursor).toBeNull();
  });

  it('orders projects created at the same instant by id, newest first, and pages through them', async () => {
    const { clock, createProject, listProjects } = await setup();
    clock.set('2030-01-01T00:00:00.000Z');
    for (const name of ['t1', 't2', 't3']) await createProject.execute(caller('member'), { name });
    const first = await listProjects.execute(caller('member'), { limit: 2 });
    expect(names(first)).toEqual(['t3', 't2']);
    const second = await listProjects.execute(caller('member'), { limit: 2, cursor: first.nextCursor! });
    expect(names(second)).toEqual(['t1', 'p5']);
  });

  it('keeps later pages stable while newer projects are created', async () => {
    const { createProject, listProjects } = await setup();
    const first = await listProjects.execute(caller('member'), { limit: 2 });
    await createProject.execute(caller('member'), { name: 'newer' });
    const rest = await listProjects.execute(caller('member'), { limit: 10, cursor: first.nextCursor! });
    expect(names(rest)).toEqual(['p3', 'p2', 'p1']);
  });

  it('never lets a cursor reach into another organization', async () => {
    const { listProjects } = await setup();
    const cursor = encodeListCursor({ createdAt: new Date('2100-01-01T00:00:00.000Z'), id: 2_147_483_647 });
    expect(names(await listProjects.execute(caller('member', 2, 20), { limit: 10, cursor }))).toEqual(['theirs']);
  });

  it('rejects a malformed cursor as a validation error on query.cursor', async () => {
    const { listProjects } = await setup();
    await expect(listProjects.execute(caller('member'), { limit: 10, cursor: 'not a cursor' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { cursor: 'Invalid cursor' },
    });
  });
});
