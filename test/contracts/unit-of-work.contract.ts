import fc from 'fast-check';
import { assertOnFreshStores } from './fresh-runs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { UserRepository } from '../../core/accounts/user-repository.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import { aNewUser } from './user-repository.contract';

/** A UnitOfWork and two repositories of the same store, whose writes it must hold together. */
export interface UnitOfWorkHarness {
  unitOfWork: UnitOfWork;
  organizations: OrganizationRepository;
  users: UserRepository;
  teardown(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise settled from outside, to step a transaction from the test's own async context. */
function signal<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}

export function describeUnitOfWorkContract(name: string, setup: () => Promise<UnitOfWorkHarness>): void {
  describe(`UnitOfWork contract: ${name}`, () => {
    let h: UnitOfWorkHarness;

    beforeEach(async () => {
      h = await setup();
    });

    afterEach(async () => {
      await h.teardown();
    });

    const names = async () => (await h.organizations.list()).map((organization) => organization.name).sort();

    it('commits every write made inside, which the work reads back before the commit, and returns what the work returned', async () => {
      const existing = await h.organizations.create({ name: 'Existing' });

      const result = await h.unitOfWork.transaction(async () => {
        const created = await h.organizations.create({ name: 'Inside' });
        const user = await h.users.create(aNewUser(created.id));
        await h.organizations.setStatus(existing.id, 'suspended');
        await expect(h.users.findByEmail(user.email)).resolves.toMatchObject({ id: user.id, organizationId: created.id });
        await expect(h.organizations.findById(existing.id)).resolves.toMatchObject({ status: 'suspended' });
        return { created, user };
      });

      await expect(h.organizations.findById(result.created.id)).resolves.toEqual(result.created);
      await expect(h.users.findById(result.user.id)).resolves.toEqual(result.user);
      await expect(h.organizations.findById(existing.id)).resolves.toMatchObject({ status: 'suspended' });
    });

    it('rolls back every write made inside when the work fails, and rejects with that very error', async () => {
      const existing = await h.organizations.create({ name: 'Existing' });
      const member = await h.users.create(aNewUser(existing.id));
      const leaving = await h.users.create(aNewUser(existing.id));
      const failure = new Error('a later step failed');
      const newcomer = aNewUser(existing.id);

      const transaction = h.unitOfWork.transaction(async () => {
        await h.organizations.create({ name: 'Inside' });
        await h.users.create(newcomer);
        await h.organizations.setStatus(existing.id, 'suspended');
        await h.users.markEmailVerified(member.id);
        await h.users.setPasswordHash(member.id, null);
        await h.users.updateRole(existing.id, member.id, 'org_admin');
        await h.users.delete(existing.id, leaving.id);
        await sleep(1);
        throw failure;
      });

      await expect(transaction).rejects.toBe(failure);
      expect(await names()).toEqual(['Existing']);
      await expect(h.organizations.findById(existing.id)).resolves.toMatchObject({ status: 'active' });
      await expect(h.users.findByEmail(newcomer.email)).resolves.toBeNull();
      await expect(h.users.findById(member.id)).resolves.toEqual(member);
      await expect(h.users.findById(leaving.id)).resolves.toEqual(leaving);
    });

    it('leaves no partial state when a statement inside fails, and stays usable afterwards', async () => {
      const existing = await h.organizations.create({ name: 'Existing' });
      const taken = await h.users.create(aNewUser(existing.id));
      const first = aNewUser(existing.id);

      const duplicate = h.unitOfWork.transaction(async () => {
        await h.organizations.create({ name: 'Inside' });
        await h.users.create(first);
        await h.users.create(aNewUser(existing.id, { email: taken.email }));
      });
      await expect(duplicate).rejects.toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });

      // A row whose foreign key points nowhere: a bug the store refuses, as SQL does.
      const dangling = h.unitOfWork.transaction(async () => {
        await h.organizations.setStatus(existing.id, 'suspended');
        await h.users.create(aNewUser(2_000_000_000));
      });
      await expect(dangling).rejects.toThrow();

      expect(await names()).toEqual(['Existing']);
      await expect(h.organizations.findById(existing.id)).resolves.toMatchObject({ status: 'active' });
      await expect(h.users.findByEmail(first.email)).resolves.toBeNull();

      await h.unitOfWork.transaction(() => h.organizations.create({ name: 'After' }));
      expect(await names()).toEqual(['After', 'Existing']);
    });

    it('nests: an inner transaction sees the outer one\'s writes and rolls back with it', async () => {
      const outer = h.unitOfWork.transaction(async () => {
        const first = await h.organizations.create({ name: 'Outer' });
        const inner = await h.unitOfWork.transaction(async () => {
          await expect(h.organizations.findById(first.id)).resolves.toMatchObject({ name: 'Outer' });
          return h.organizations.create({ name: 'Inner' });
        });
        expect(inner.name).toBe('Inner');
        throw new Error('the outer work failed after the inner one returned');
      });

      await expect(outer).rejects.toThrow('the outer work failed');
      expect(await names()).toEqual([]);
    });

    it('nests without a savepoint: the inner work\'s writes commit with the outer transaction, even when the inner call failed', async () => {
      await h.unitOfWork.transaction(async () => {
        await h.organizations.create({ name: 'Outer' });
        const inner = h.unitOfWork.transaction(async () => {
          await h.organizations.create({ name: 'Inner' });
          throw new Error('inner failure, handled by the outer work');
        });
        await expect(inner).rejects.toThrow('inner failure');
      });

      expect(await names()).toEqual(['Inner', 'Outer']);
    });

    it('never shows a transaction\'s writes to a reader outside it, before or after it rolls back', async () => {
      const existing = await h.organizations.create({ name: 'Existing' });
      const written = signal<number>();
      const release = signal();

      const transaction = h.unitOfWork.transaction(async () => {
        const created = await h.organizations.create({ name: 'Uncommitted' });
        await h.organizations.setStatus(existing.id, 'suspended');
        written.resolve(created.id);
        await release.promise;
        throw new Error('rolled back');
      });
      // Awaited here, in the test's own context: the reads below are not part of the transaction.
      const createdId = await written.promise;
      const outside = Promise.all([h.organizations.findById(createdId), h.organizations.findById(existing.id), names()]);
      await sleep(20);
      release.resolve();

      await expect(transaction).rejects.toThrow('rolled back');
      const [created, before, listed] = await outside;
      expect(created).toBeNull();
      expect(before).toMatchObject({ status: 'active' });
      expect(listed).toEqual(['Existing']);
    });

    it('keeps concurrent transactions apart: each sees only its own writes, and a rollback takes only its own', async () => {
      const seen = new Map<string, string[]>();
      const run = (label: string, fail: boolean) =>
        h.unitOfWork.transaction(async () => {
          await h.organizations.create({ name: `${label}1` });
          await sleep(15);
          seen.set(label, await names());
          await h.organizations.create({ name: `${label}2` });
          await sleep(15);
          if (fail) throw new Error(`${label} failed`);
        });

      const outcomes = await Promise.allSettled([run('a', true), run('b', false), run('c', false)]);

      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
      // `a` never commits, so no other transaction may ever have seen its rows.
      expect(seen.get('b')).not.toEqual(expect.arrayContaining(['a1']));
      expect(seen.get('c')).not.toEqual(expect.arrayContaining(['a1']));
      for (const label of ['a', 'b', 'c']) expect(seen.get(label)).toEqual(expect.arrayContaining([`${label}1`]));
      expect(await names()).toEqual(['b1', 'b2', 'c1', 'c2']);
    });

    it('agrees with a plain model under random sequences of committed, failed and nested transactions', async () => {
      await assertOnFreshStores(setup, fc.array(transactionCommand, { minLength: 1, maxLength: 8 }), checkAgainstModel);
    });
  });
}

type Step = { kind: 'create' } | { kind: 'suspend'; pick: number } | { kind: 'nested'; steps: Step[]; fails: boolean };
interface TransactionCommand {
  steps: Step[];
  /** Throws after its steps: nothing of it may remain. */
  fails: boolean;
}

const leafStep: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'create' }),
  fc.record({ kind: fc.constant('suspend' as const), pick: fc.nat() }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 3, arbitrary: leafStep },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('nested' as const), steps: fc.array(leafStep, { maxLength: 3 }), fails: fc.boolean() }) },
);
const transactionCommand: fc.Arbitrary<TransactionCommand> = fc.record({ steps: fc.array(step, { maxLength: 4 }), fails: fc.boolean() });

/**
 * Runs each command as one transaction on the store and on a model (organization name → status).
 * A failed nested call is caught by its outer work, so, joined and without a savepoint, its
 * steps count whenever the outer transaction commits.
 */
async function checkAgainstModel(h: UnitOfWorkHarness, commands: TransactionCommand[]): Promise<void> {
  let model = new Map<string, 'active' | 'suspended'>();
  const ids = new Map<string, number>();
  let created = 0;

  const apply = async (steps: Step[], draft: Map<string, 'active' | 'suspended'>): Promise<void> => {
    for (const s of steps) {
      if (s.kind === 'create') {
        const name = `org-${(created += 1)}`;
        ids.set(name, (await h.organizations.create({ name })).id);
        draft.set(name, 'active');
      } else if (s.kind === 'suspend') {
        const names = [...draft.keys()];
        if (names.length === 0) continue;
        const name = names[s.pick % names.length]!;
        await h.organizations.setStatus(ids.get(name)!, 'suspended');
        draft.set(name, 'suspended');
      } else {
        const nested = h.unitOfWork.transaction(async () => {
          await apply(s.steps, draft);
          if (s.fails) throw new Error('nested failure');
        });
        if (s.fails) await expect(nested).rejects.toThrow('nested failure');
        else await nested;
      }
    }
  };

  for (const command of commands) {
    const draft = new Map(model);
    const transaction = h.unitOfWork.transaction(async () => {
      await apply(command.steps, draft);
      if (command.fails) throw new Error('rolled back');
    });
    if (command.fails) await expect(transaction).rejects.toThrow('rolled back');
    else {
      await transaction;
      model = draft;
    }
    const stored = (await h.organizations.list()).map((organization) => [organization.name, organization.status] as const);
    expect(new Map(stored)).toEqual(model);
  }
}
