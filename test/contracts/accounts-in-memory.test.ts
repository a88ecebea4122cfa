import { describe, expect, it } from 'vitest';
import { InMemoryEmailOutbox } from '../../adapters/in-memory/in-memory-email-outbox';
import { InMemoryOneTimeTokenStore } from '../../adapters/in-memory/in-memory-one-time-token-store';
import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemorySessionStore } from '../../adapters/in-memory/in-memory-session-store';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUserRepository } from '../../adapters/in-memory/in-memory-user-repository';
import { FakeClock } from '../support/fake-clock';
import { describeEmailOutboxContract } from './email-outbox.contract';
import { describeOneTimeTokenStoreContract } from './one-time-token-store.contract';
import { describeOrganizationRepositoryContract } from './organization-repository.contract';
import { describeSessionStoreContract } from './session-store.contract';
import { describeUnitOfWorkContract } from './unit-of-work.contract';
import { aNewUser, describeUserRepositoryContract } from './user-repository.contract';
import { describeMfaStoresContract } from './mfa-stores.contract';
import { InMemoryMfaRepository } from '../../adapters/in-memory/in-memory-mfa-repository';
import { InMemoryMfaChallengeStore } from '../../adapters/in-memory/in-memory-mfa-challenge-store';

function inMemoryAccounts(clock = new FakeClock(), store = new InMemoryStore({ clock })) {
  const outbox = new InMemoryEmailOutbox(store);
  return {
    store,
    organizations: new InMemoryOrganizationRepository(store),
    users: new InMemoryUserRepository(store),
    sessions: new InMemorySessionStore(store),
    tokens: new InMemoryOneTimeTokenStore(store),
    mfa: new InMemoryMfaRepository(store),
    challenges: new InMemoryMfaChallengeStore(store),
    outbox,
    unitOfWork: store.unitOfWork,
    async deleteOrganization(id: number) {
      await store.unitOfWork.exclusive(() => store.deleteOrganization(id));
    },
    pendingEmails: () => outbox.pending(),
    clock,
    async tokenTimes(tokenHash: string) {
      const token = [...store.oneTimeTokens.values()].find((row) => row.token_hash === tokenHash);
      if (!token) throw new Error('no such token');
      return { createdAt: token.created_at, usedAt: token.used_at };
    },
    enqueuedAt: async () => [...store.emailOutbox.values()].map((row) => row.created_at),
    teardown: async () => undefined,
  };
}

const setup = async () => inMemoryAccounts();

describeOrganizationRepositoryContract('in-memory', setup);
describeUserRepositoryContract('in-memory', setup);
describeSessionStoreContract('in-memory', setup);
describeOneTimeTokenStoreContract('in-memory', setup);
describeEmailOutboxContract('in-memory', setup);
describeUnitOfWorkContract('in-memory', setup);
describeMfaStoresContract('in-memory', setup);

// What the contracts cannot see through the ports: the store's own guarantees.
describe('InMemoryStore and its UnitOfWork', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('runs transactions one after the other, never interleaved', async () => {
    const { unitOfWork } = inMemoryAccounts();
    const trace: string[] = [];
    const step = (label: string) => unitOfWork.transaction(async () => {
      trace.push(`${label}:start`);
      await sleep(10);
      trace.push(`${label}:end`);
    });

    await Promise.all([step('a'), step('b'), step('c')]);

    expect(trace).toEqual(['a:start', 'a:end', 'b:start', 'b:end', 'c:start', 'c:end']);
  });

  it('makes a call outside the transaction wait for it, so a rollback never erases that call', async () => {
    const h = inMemoryAccounts();
    const org = await h.organizations.create({ name: 'Acme' });
    const input = aNewUser(org.id);

    const failing = h.unitOfWork.transaction(async () => {
      await h.organizations.setStatus(org.id, 'suspended');
      await sleep(20);
      throw new Error('rolled back');
    });
    const outside = h.users.create(input);

    await expect(failing).rejects.toThrow('rolled back');
    await expect(outside).resolves.toMatchObject({ email: input.email });
    expect(await h.users.findByEmail(input.email)).not.toBeNull();
    expect((await h.organizations.findById(org.id))?.status).toBe('active');
  });

  it('never hands out an id twice, even after a rollback', async () => {
    const h = inMemoryAccounts();
    const rolledBack = h.unitOfWork.transaction(async () => {
      await h.organizations.create({ name: 'Gone' });
      throw new Error('rolled back');
    });
    await expect(rolledBack).rejects.toThrow('rolled back');

    const kept = await h.organizations.create({ name: 'Kept' });

    expect(kept.id).toBe(2);
  });

  it('lets other contexts attach tables that cascade and roll back like the built-in ones', async () => {
    const h = inMemoryAccounts();
    const projects = h.store.table<{ id: number; ownerId: number; organizationId: number }>('project');
    h.store.onDeleteUser((userId) => {
      for (const [id, project] of projects) if (project.ownerId === userId) projects.delete(id);
    });
    const org = await h.organizations.create({ name: 'Acme' });
    const user = await h.users.create(aNewUser(org.id));
    projects.set(1, { id: 1, ownerId: user.id, organizationId: org.id });

    const failing = h.unitOfWork.transaction(async () => {
      await h.users.delete(org.id, user.id);
      expect(projects.size).toBe(0);
      throw new Error('rolled back');
    });
    await expect(failing).rejects.toThrow('rolled back');
    expect(projects.get(1)).toEqual({ id: 1, ownerId: user.id, organizationId: org.id });

    await h.users.delete(org.id, user.id);
    expect(projects.size).toBe(0);
  });

  it('refuses rows that would break a foreign key, as SQL does', async () => {
    const h = inMemoryAccounts();

    await expect(h.users.create(aNewUser(987_654))).rejects.toThrow('does not exist');
  });
});
