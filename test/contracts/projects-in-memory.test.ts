import { InMemoryProjectRepository } from '../../adapters/in-memory/in-memory-project-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { projectRepositoryContract } from './project-repository.contract';

projectRepositoryContract('in-memory', async () => {
  const store = new InMemoryStore();
  const repository = new InMemoryProjectRepository(store);
  const newUser = async (organizationId: number) => {
    const id = store.nextId('app_user');
    const now = store.now();
    store.users.set(id, {
      id,
      organizationId,
      email: `user${id}@example.test`,
      passwordHash: null,
      credentialsVersion: 0,
      firstName: null,
      lastName: null,
      role: 'member',
      emailVerifiedAt: now,
      status: 'active',
      createdAt: now,
      updatedAt: now,
    });
    return id;
  };
  return {
    repository,
    async newTenant() {
      const organizationId = store.nextId('organization');
      store.organizations.set(organizationId, { id: organizationId, name: 'Acme', status: 'active', overageEnabled: false, requireMfa: false, createdAt: store.now(), updatedAt: store.now() });
      return { organizationId, userId: await newUser(organizationId) };
    },
    newUser,
    deleteOrganization: async (organizationId) => void store.deleteOrganization(organizationId),
    deleteUser: async (userId) => void store.deleteUser(userId),
    close: async () => undefined,
  };
});
