import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { Project } from '../../core/projects/project';
import type { NewProject, ProjectRepository } from '../../core/projects/project-repository.port';
import { UNLIMITED } from '../../core/plans/feature-catalogue';
import type { Tenants } from './tenants';

/** The repository under test, and organizations and users to own its projects. */
export interface ProjectRepositoryHarness extends Tenants {
  repository: ProjectRepository;
  close(): Promise<void>;
}

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (minutes: number, ms = 0) => new Date(T0 + minutes * 60_000 + ms);

/**
 * The ProjectRepository contract, run against every adapter. Each test works in organizations it
 * creates, so tests share one store and never clean up after each other.
 */
export function projectRepositoryContract(name: string, open: () => Promise<ProjectRepositoryHarness>): void {
  describe(`ProjectRepository contract: ${name}`, () => {
    let harness: ProjectRepositoryHarness;
    let repository: ProjectRepository;

    beforeAll(async () => {
      harness = await open();
      repository = harness.repository;
    });
    /** A project created with no limit in the way. */
    const create = async (organizationId: number, project: NewProject): Promise<Project> => (await repository.createWithinLimit(organizationId, project, UNLIMITED))!;
    afterAll(async () => harness?.close());

    const draft = (userId: number, overrides: Partial<NewProject> = {}): NewProject => ({
      userId,
      name: 'Apollo',
      description: null,
      createdAt: at(0),
      ...overrides,
    });

    /** Creates `count` projects a minute apart, oldest first. */
    async function seed(organizationId: number, userId: number, count: number): Promise<Project[]> {
      const created: Project[] = [];
      for (let i = 0; i < count; i += 1) {
        created.push(await create(organizationId, draft(userId, { name: `p${i}`, createdAt: at(i) })));
      }
      return created;
    }

    const ids = (projects: Project[]) => projects.map((p) => p.id);

    it('creates a project and finds it again, millisecond timestamps intact, updatedAt = createdAt', async () => {
      const { organizationId, userId } = await harness.newTenant();
      const createdAt = at(3, 457);
      const project = await create(organizationId, draft(userId, { name: 'Apollo', description: 'moon', createdAt }));
      expect(project).toEqual({ id: expect.any(Number), organizationId, userId, name: 'Apollo', description: 'moon', createdAt, updatedAt: createdAt });
      expect(await repository.findById(organizationId, project.id)).toEqual(project);
    });

    it('creates within a limit: below it, never at it, -1 for none, and counts the organization', async () => {
      const { organizationId, userId } = await harness.newTenant();
      expect(await repository.createWithinLimit(organizationId, draft(userId), 0)).toBeNull();
      const first = await repository.createWithinLimit(organizationId, draft(userId, { name: 'first' }), 2);
      expect(first).toEqual({ id: expect.any(Number), organizationId, userId, name: 'first', description: null, createdAt: at(0), updatedAt: at(0) });
      expect(await repository.createWithinLimit(organizationId, draft(userId), 2)).not.toBeNull();
      expect(await repository.createWithinLimit(organizationId, draft(userId), 2)).toBeNull();
      expect(await repository.countByOrganization(organizationId)).toBe(2);
      expect(await repository.createWithinLimit(organizationId, draft(userId), -1)).not.toBeNull();
      await repository.delete(organizationId, first!.id);
      expect(await repository.createWithinLimit(organizationId, draft(userId), 3)).not.toBeNull();
      expect(await repository.countByOrganization(organizationId)).toBe(3);
    });

    it('creates within a limit atomically: with one slot left, one of many concurrent calls succeeds', async () => {
      const { organizationId, userId } = await harness.newTenant();
      await seed(organizationId, userId, 3);
      const results = await Promise.all(Array.from({ length: 12 }, () => repository.createWithinLimit(organizationId, draft(userId), 4)));
      expect(results.filter((project) => project !== null)).toHaveLength(1);
      expect(await repository.countByOrganization(organizationId)).toBe(4);
    });

    it('gives every project its own id', async () => {
      const { organizationId, userId } = await harness.newTenant();
      const projects = await Promise.all([1, 2, 3].map((i) => create(organizationId, draft(userId, { name: `c${i}` }))));
      expect(new Set(ids(projects)).size).toBe(3);
    });

    it('answers a missing id with null and false', async () => {
      const { organizationId } = await harness.newTenant();
      expect(await repository.findById(organizationId, 2_147_483_647)).toBeNull();
      expect(await repository.update(organizationId, 2_147_483_647, { name: 'x', updatedAt: at(1) })).toBeNull();
      expect(await repository.delete(organizationId, 2_147_483_647)).toBe(false);
    });

    it("treats another organization's project as absent on every method, and leaves it untouched", async () => {
      const ours = await harness.newTenant();
      const theirs = await harness.newTenant();
      const project = await create(theirs.organizationId, draft(theirs.userId, { name: 'theirs' }));
      await create(ours.organizationId, draft(ours.userId, { name: 'ours' }));

      expect(await repository.findById(ours.organizationId, project.id)).toBeNull();
      expect(await repository.update(ours.organizationId, project.id, { name: 'stolen', updatedAt: at(9) })).toBeNull();
      expect(await repository.delete(ours.organizationId, project.id)).toBe(false);
      expect((await repository.list(ours.organizationId)).map((p) => p.name)).toEqual(['ours']);
      expect(await repository.findById(theirs.organizationId, project.id)).toEqual(project);
    });

    it('lists newest first, ties on createdAt broken by the higher id first', async () => {
      const { organizationId, userId } = await harness.newTenant();
      const older = await create(organizationId, draft(userId, { createdAt: at(0) }));
      const tieA = await create(organizationId, draft(userId, { createdAt: at(5) }));
      const tieB = await create(organizationId, draft(userId, { createdAt: at(5) }));
      const newest = await create(organizationId, draft(userId, { createdAt: at(9) }));
      const middle = await create(organizationId, draft(userId, { createdAt: at(2) }));
      expect(ids(await repository.list(organizationId))).toEqual([newest.id, tieB.id, tieA.id, middle.id, older.id]);
    });

    it('returns at most `limit` projects, and only those strictly after the `after` position', async () => {
      const { organizationId, userId } = await harness.newTenant();
      const [p0, p1, p2, p3, p4] = await seed(organizationId, userId, 5);
      expect(ids(await repository.list(organizationId, { limit: 2 }))).toEqual([p4!.id, p3!.id]);
      expect(ids(await repository.list(organizationId, { after: p3! }))).toEqual([p2!.id, p1!.id, p0!.id]);
      expect(ids(await repository.list(organizationId, { limit: 1, after: p3! }))).toEqual([p2!.id]);
      expect(await repository.list(organizationId, { after: p0! })).toEqual([]);
    });

    it('pages through projects that share a createdAt without skipping or repeating any', async () => {
      const { organizationId, userId } = await harness.newTenant();
      const created = [];
      for (let i = 0; i < 7; i += 1) created.push(await create(organizationId, draft(userId, { createdAt: at(i % 2) })));
      const walked: Project[] = [];
      for (let page = await repository.list(organizationId, { limit: 3 }); page.length > 0; ) {
        walked.push(...page);
        page = await repository.list(organizationId, { limit: 3, after: page[page.length - 1]! });
      }
      expect(ids(walked)).toEqual(ids(await repository.list(organizationId)));
      expect(new Set(ids(walked)).size).toBe(7);
    });

    it('keeps keyset pages stable while other requests insert concurrently', async () => {
      const { organizationId, userId } = await harness.newTenant();
      const original = (await seed(organizationId, userId, 12)).reverse(); // newest first
      const firstPage = await repository.list(organizationId, { limit: 4 });
      expect(ids(firstPage)).toEqual(ids(original.slice(0, 4)));

      const inserts = Promise.all(
        Array.from({ length: 10 }, (_, i) => create(organizationId, draft(userId, { name: `new${i}`, createdAt: at(100 + i) }))),
      );
      const walked: Project[] = [];
      let after = firstPage[firstPage.length - 1]!;
      for (;;) {
        const page = await repository.list(organizationId, { limit: 4, after });
        if (page.length === 0) break;
        walked.push(...page);
        after = page[page.length - 1]!;
      }
      await inserts;
      expect(ids(walked)).toEqual(ids(original.slice(4)));
      expect(await repository.list(organizationId)).toHaveLength(22);
    });

    it('updates the given fields, sets updatedAt and never changes createdAt', async () => {
      const { organizationId, userId } = await harness.newTenant();
      const project = await create(organizationId, draft(userId, { name: 'Apollo', description: 'moon', createdAt: at(0) }));

      const renamed = await repository.update(organizationId, project.id, { name: 'Artemis', updatedAt: at(1, 5) });
      expect(renamed).toEqual({ ...project, name: 'Artemis', updatedAt: at(1, 5) });

      const described = await repository.update(organizationId, project.id, { description: 'mars', updatedAt: at(2) });
      expect(described).toEqual({ ...project, name: 'Artemis', description: 'mars', updatedAt: at(2) });

      const cleared = await repository.update(organizationId, project.id, { description: null, updatedAt: at(3) });
      expect(cleared).toMatchObject({ name: 'Artemis', description: null, createdAt: at(0), updatedAt: at(3) });

      const touched = await repository.update(organizationId, project.id, { updatedAt: at(4) });
      expect(touched).toEqual({ ...cleared, updatedAt: at(4) });
      expect(await repository.findById(organizationId, project.id)).toEqual(touched);
    });

    it('deletes once: true, then gone, then false', async () => {
      const { organizationId, userId } = await harness.newTenant();
      const [keep, drop] = await seed(organizationId, userId, 2);
      expect(await repository.delete(organizationId, drop!.id)).toBe(true);
      expect(await repository.findById(organizationId, drop!.id)).toBeNull();
      expect(await repository.delete(organizationId, drop!.id)).toBe(false);
      expect(ids(await repository.list(organizationId))).toEqual([keep!.id]);
    });

    it("deletes an organization's projects with the organization, and only those", async () => {
      const doomed = await harness.newTenant();
      const survivor = await harness.newTenant();
      const [gone] = await seed(doomed.organizationId, doomed.userId, 2);
      const kept = await seed(survivor.organizationId, survivor.userId, 2);
      await harness.deleteOrganization(doomed.organizationId);
      expect(await repository.list(doomed.organizationId)).toEqual([]);
      expect(await repository.findById(doomed.organizationId, gone!.id)).toBeNull();
      expect(ids(await repository.list(survivor.organizationId))).toEqual(ids(kept).reverse());
    });

    it("deletes a user's projects with the user, and keeps their colleagues' projects", async () => {
      const { organizationId, userId } = await harness.newTenant();
      const colleague = await harness.newUser(organizationId);
      await seed(organizationId, userId, 2);
      const kept = await seed(organizationId, colleague, 2);
      await harness.deleteUser(userId);
      expect(ids(await repository.list(organizationId))).toEqual(ids(kept).reverse());
    });
  });
}
