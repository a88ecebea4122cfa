import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemorySubscriptionRepository } from '../../adapters/in-memory/in-memory-subscription-repository';
import { subscriptionRepositoryContract } from './subscription-repository.contract';

subscriptionRepositoryContract('in-memory', async () => {
  const store = new InMemoryStore();
  return {
    repository: new InMemorySubscriptionRepository(store),
    async newOrganization() {
      const id = store.nextId('organization');
      store.organizations.set(id, { id, name: 'Acme', status: 'active', overage_enabled: false, require_mfa: false, created_at: store.now(), updated_at: store.now() });
      return id;
    },
    async deleteOrganization(organizationId) {
      store.deleteOrganization(organizationId);
    },
    close: async () => undefined,
  };
});
