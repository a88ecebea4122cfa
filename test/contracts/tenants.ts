import type { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import type { Database } from '../../adapters/postgres/database';
import { insertOrganization, insertUser } from '../support/sessions';

/** Organizations and users to own records: what the contract suites of tenant-owned repositories need besides the repository. */
export interface Tenants {
  /** A new organization with one user in it. */
  newTenant(): Promise<{ organizationId: number; userId: number }>;
  newUser(organizationId: number): Promise<number>;
  /** Deletes the organization the way its owner would (SQL: `delete from organization`), cascades included. */
  deleteOrganization(organizationId: number): Promise<void>;
  deleteUser(userId: number): Promise<void>;
}

/** Tenants straight into an InMemoryStore; deleting them runs the store's cascades. */
export function inMemoryTenants(store: InMemoryStore): Tenants {
  const newUser = async (organizationId: number) => {
    const id = store.nextId('app_user');
    const now = store.now();
    store.users.set(id, {
      id,
      organization_id: organizationId,
      email: `user${id}@example.test`,
      password_hash: null,
      credentials_version: 0,
      first_name: null,
      last_name: null,
      role: 'member',
      email_verified_at: now,
      status: 'active',
      created_at: now,
      updated_at: now,
    });
    return id;
  };
  return {
    newUser,
    async newTenant() {
      const organizationId = store.nextId('organization');
      store.organizations.set(organizationId, { id: organizationId, name: 'Acme', status: 'active', overage_enabled: false, require_mfa: false, created_at: store.now(), updated_at: store.now() });
      return { organizationId, userId: await newUser(organizationId) };
    },
    deleteOrganization: async (organizationId) => void store.deleteOrganization(organizationId),
    deleteUser: async (userId) => void store.deleteUser(userId),
  };
}

/** Tenants as rows of a migrated database; deleting them runs the foreign keys' cascades. */
export function postgresTenants(database: Database): Tenants {
  return {
    async newTenant() {
      const organizationId = await insertOrganization(database);
      return { organizationId, userId: await insertUser(database, organizationId) };
    },
    newUser: (organizationId) => insertUser(database, organizationId),
    async deleteOrganization(organizationId) {
      await database.db.deleteFrom('organization').where('id', '=', organizationId).execute();
    },
    async deleteUser(userId) {
      await database.db.deleteFrom('app_user').where('id', '=', userId).execute();
    },
  };
}
