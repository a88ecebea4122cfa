import type { InMemoryStore } from '../../adapters/in-memory/in-memory-store';

/** Organizations and users straight into an InMemoryStore, for contract suites of tenant-owned records. */
export function inMemoryTenants(store: InMemoryStore) {
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
    newUser,
    async newTenant() {
      const organizationId = store.nextId('organization');
      store.organizations.set(organizationId, { id: organizationId, name: 'Acme', status: 'active', overageEnabled: false, requireMfa: false, createdAt: store.now(), updatedAt: store.now() });
      return { organizationId, userId: await newUser(organizationId) };
    },
    deleteOrganization: async (organizationId: number) => void store.deleteOrganization(organizationId),
    deleteUser: async (userId: number) => void store.deleteUser(userId),
  };
}
