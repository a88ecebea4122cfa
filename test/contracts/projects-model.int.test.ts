import { seededPlansQuota } from '../builders/plans';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryProjectRepository } from '../../adapters/in-memory/in-memory-project-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import type { UserCaller } from '../../core/access/caller';
import { ROLES, type RoleName } from '../../core/access/role';
import { CreateProject } from '../../core/projects/create-project.use-case';
import { DeleteProject } from '../../core/projects/delete-project.use-case';
import { GetProject } from '../../core/projects/get-project.use-case';
import { ListProjects } from '../../core/projects/list-projects.use-case';
import type { Project } from '../../core/projects/project';
import type { ProjectRepository } from '../../core/projects/project-repository.port';
import { UpdateProject } from '../../core/projects/update-project.use-case';
import { FakeClock } from '../support/fake-clock';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { insertOrganization, insertUser } from '../support/sessions';

/**
 * Model-based test: random create/list/get/update/delete sequences, issued by random users of
 * several organizations with random roles, run through the use cases on a real adapter and on a
 * plain model. After every step the whole table must equal the model, which is how we know no
 * organization ever sees, changes or deletes another's project.
 */
const NUM_RUNS = Number(process.env.PROPERTY_RUNS ?? 200);
const TENANTS = 3;
const USERS_PER_TENANT = 2;

interface System {
  clock: FakeClock;
  create: CreateProject;
  list: ListProjects;
  get: GetProject;
  update: UpdateProject;
  delete: DeleteProject;
  /** Every stored project of every organization, read around the use cases. */
  everything(): Promise<Project[]>;
}

interface Model {
  projects: Map<number, Project>;
  /** Ids come from a fresh sequence each run, so the model can predict them. */
  nextId: number;
}

interface Actor {
  tenant: number;
  user: number;
  role: RoleName;
}

interface Backend {
  members: Array<Array<{ organizationId: number; userId: number }>>;
  /** Runs one property run; nothing it writes needs to outlive it. */
  isolated(run: () => Promise<void>): Promise<void>;
  /** The store as a run starts: no projects, ids counting from 1. */
  fresh(): Promise<{ repository: ProjectRepository; everything(): Promise<Project[]> }>;
}

type Cmd = fc.AsyncCommand<Model, System, false>;

const byId = (a: Project, b: Project) => a.id - b.id;
const newestFirst = (a: Project, b: Project) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;

// Use cases receive validated input: trimmed, non-empty names; PostgreSQL text cannot hold NUL.
const text = (maxLength: number) => fc.string({ unit: 'grapheme', maxLength }).map((s) => s.replaceAll('\u0000', '').trim());
const name = text(40).filter((s) => s.length > 0);
const description = fc.option(text(60), { nil: null });
// Zero often: projects created in the same millisecond must still come out ordered by id.
const tick = fc.constantFrom(0, 0, 1, 7, 60_000);
// Small ids hit live, deleted and foreign projects; the largest int4 is always missing.
const projectId = fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constant(2_147_483_647));

const anyRole = fc.constantFrom(...ROLES);

function commands(backend: Backend, role: fc.Arbitrary<RoleName>): fc.Arbitrary<Cmd>[] {
  const actor = fc.record({ tenant: fc.nat(TENANTS - 1), user: fc.nat(USERS_PER_TENANT - 1), role });
  const callerOf = (who: Actor): UserCaller => ({ ...backend.members[who.tenant]![who.user]!, role: who.role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const });
  const visible = (model: Model, caller: UserCaller, id: number) => {
    const project = model.projects.get(id);
    return project?.organizationId === caller.organizationId ? project : undefined;
  };
  const command = (label: string, run: (model: Model, real: System) => Promise<unknown>): Cmd => ({
    check: () => true,
    async run(model, real) {
      await run(model, real);
      expect((await real.everything()).sort(byId)).toEqual([...model.projects.values()].sort(byId));
    },
    toString: () => label,
  });
  const show = (...values: unknown[]) => values.map((value) => (value === undefined ? 'undefined' : JSON.stringify(value))).join(', ');

  const create = fc.tuple(actor, name, description, tick).map(([who, projectName, projectDescription, ms]) =>
    command(`create(${show(who, projectName, projectDescription, ms)})`, async (model, real) => {
      const caller = callerOf(who);
      real.clock.advance(ms);
      const now = real.clock.now();
      const attempt = real.create.execute(caller, { name: projectName, description: projectDescription });
      if (who.role === 'readonly') return expect(attempt).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
      const expected: Project = {
        id: model.nextId,
        organizationId: caller.organizationId,
        userId: caller.userId,
        name: projectName,
        description: projectDescription,
        createdAt: now,
        updatedAt: now,
      };
      await expect(attempt).resolves.toEqual(expected);
      model.projects.set(expected.id, expected);
      model.nextId += 1;
    }),
  );

  const get = fc.tuple(actor, projectId).map(([who, id]) =>
    command(`get(${show(who, id)})`, async (model, real) => {
      const caller = callerOf(who);
      const expected = visible(model, caller, id);
      const attempt = real.get.execute(caller, { id });
      if (expected) return expect(attempt).resolves.toEqual(expected);
      await expect(attempt).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resource: 'project', resource_id: id } });
    }),
  );

  const list = fc.tuple(actor, fc.integer({ min: 1, max: 4 })).map(([who, limit]) =>
    command(`list(${show(who, limit)})`, async (model, real) => {
      const caller = callerOf(who);
      const expected = [...model.projects.values()].filter((p) => p.organizationId === caller.organizationId).sort(newestFirst);
      const walked: Project[] = [];
      let cursor: string | undefined;
      // Bounded, so a cursor that never ends fails the run instead of hanging it.
      for (let pages = 0; pages <= expected.length + 1; pages += 1) {
        const page = await real.list.execute(caller, { limit, ...(cursor === undefined ? {} : { cursor }) });
        expect(page.items.length).toBeLessThanOrEqual(limit);
        walked.push(...page.items);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(walked).toEqual(expected);
    }),
  );

  const update = fc
    .tuple(actor, projectId, fc.option(name, { nil: null }), fc.option(description, { nil: undefined }), tick)
    .map(([who, id, newName, newDescription, ms]) =>
      command(`update(${show(who, id, newName, newDescription, ms)})`, async (model, real) => {
        const caller = callerOf(who);
        real.clock.advance(ms);
      const now = real.clock.now();
        const current = visible(model, caller, id);
        const attempt = real.update.execute(caller, { id, name: newName, description: newDescription });
        if (who.role === 'readonly') return expect(attempt).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
        if (!current) return expect(attempt).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
        // Spec: omitted or null leaves the stored value unchanged.
        const expected: Project = { ...current, name: newName ?? current.name, description: newDescription ?? current.description, updatedAt: now };
        await expect(attempt).resolves.toEqual(expected);
        model.projects.set(id, expected);
      }),
    );

  const remove = fc.tuple(actor, projectId).map(([who, id]) =>
    command(`delete(${show(who, id)})`, async (model, real) => {
      const caller = callerOf(who);
      const attempt = real.delete.execute(caller, { id });
      if (who.role === 'readonly') return expect(attempt).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
      if (!visible(model, caller, id)) return expect(attempt).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
      await expect(attempt).resolves.toBeUndefined();
      model.projects.delete(id);
    }),
  );

  return [create, create, get, list, update, remove];
}

async function freshSystem(backend: Backend): Promise<System> {
  const { repository, everything } = await backend.fresh();
  const clock = new FakeClock();
  return {
    clock,
    create: new CreateProject({ projects: repository, quota: seededPlansQuota(), clock: clock }),
    list: new ListProjects({ projects: repository }),
    get: new GetProject({ projects: repository }),
    update: new UpdateProject({ projects: repository, clock: clock }),
    delete: new DeleteProject({ projects: repository }),
    everything,
  };
}

/** `backend.members` may be filled in by a beforeAll: it is read only when the tests run. */
function modelProperties(backend: Backend): void {
  it(`agrees with the model and keeps organizations apart (${NUM_RUNS} runs)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands(backend, anyRole), { maxCommands: 30 }), (cmds) =>
        backend.isolated(async () => {
          const real = await freshSystem(backend);
          await fc.asyncModelRun(() => ({ model: { projects: new Map(), nextId: 1 }, real }), cmds);
        }),
      ),
      { numRuns: NUM_RUNS },
    );
  });

  it(`never lets a readonly caller change anything, whatever the sequence (${NUM_RUNS} runs)`, async () => {
    const seeds = fc.array(fc.tuple(fc.nat(TENANTS - 1), fc.nat(USERS_PER_TENANT - 1), name), { maxLength: 6 });
    const attempts = fc.commands(commands(backend, fc.constant('readonly')), { maxCommands: 20 });
    await fc.assert(
      fc.asyncProperty(seeds, attempts, (seed, cmds) =>
        backend.isolated(async () => {
          const real = await freshSystem(backend);
          for (const [tenant, user, projectName] of seed) {
            const member = backend.members[tenant]![user]!;
            await real.create.execute({ ...member, role: 'member', sessionId: 1, mfaSatisfied: true, kind: 'user' as const }, { name: projectName });
          }
          const before = (await real.everything()).sort(byId);
          const model: Model = { projects: new Map(before.map((p) => [p.id, p])), nextId: before.length + 1 };
          await fc.asyncModelRun(() => ({ model, real }), cmds);
          expect((await real.everything()).sort(byId)).toEqual(before);
        }),
      ),
      { numRuns: NUM_RUNS },
    );
  });
}

/** Dates come back as text from the driver (MikroORM's type parsers); the rest is as `Project` names it. */
type StoredProject = Omit<Project, 'createdAt' | 'updatedAt'> & { createdAt: string | Date; updatedAt: string | Date };

const postgres = await requirePostgres();

describe.skipIf(!postgres)('projects model test: use cases on PostgresProjectRepository', () => {
  let db: TestDatabase;
  const members: Backend['members'] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    for (let t = 0; t < TENANTS; t += 1) {
      const organizationId = await insertOrganization(db.database, `tenant ${t}`);
      const users = [];
      for (let u = 0; u < USERS_PER_TENANT; u += 1) users.push({ organizationId, userId: await insertUser(db.database, organizationId) });
      members.push(users);
    }
  });
  afterAll(async () => db?.drop());

  const rollback = new Error('rollback');

  modelProperties({
    members,
    // One database for every run, each run in a transaction that is rolled back: no commit to
    // wait for and nothing to clean up. The statements are the ones the app sends.
    async isolated(run) {
      try {
        await db.database.transaction(async () => {
          await run();
          throw rollback;
        });
      } catch (error) {
        if (error !== rollback) throw error;
      }
    },
    async fresh() {
      // ALTER SEQUENCE is transactional, so the restart is undone with the run.
      await db.database.run('delete from project', []);
      await db.database.run('alter sequence project_id_seq restart', []);
      return {
        repository: new PostgresProjectRepository(db.database),
        // The test's own SQL, not the adapter's: the check must not share the code it checks.
        // The columns are named after the domain fields, so no second row type is declared here.
        async everything() {
          const rows = await db.database.select<StoredProject>(
            `select id, organization_id as "organizationId", user_id as "userId", name, description,
                    created_at as "createdAt", updated_at as "updatedAt" from project`,
            [],
          );
          return rows.map((row) => ({ ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) }));
        },
      };
    },
  });
});

describe('projects model test: use cases on InMemoryProjectRepository', () => {
  const members = Array.from({ length: TENANTS }, (_, t) =>
    Array.from({ length: USERS_PER_TENANT }, (_, u) => ({ organizationId: t + 1, userId: 100 * (t + 1) + u })),
  );
  modelProperties({
    members,
    isolated: (run) => run(),
    async fresh() {
      const repository = new InMemoryProjectRepository(new InMemoryStore());
      const everything = async () => (await Promise.all(members.map(([m]) => repository.list(m!.organizationId)))).flat();
      return { repository, everything };
    },
  });
});
