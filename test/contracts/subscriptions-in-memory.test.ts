import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemorySubscriptionRepository } from '../../adapters/in-memory/in-memory-subscription-repository';
import { subscriptionRepositoryContract } from './subscription-repository.contract';

subscriptionRepositoryContract('in-memory', async () => {
  const store = new InMemoryStore();
  return {
    repository: new InMemorySubscriptionRepository(store),
    async newOrganization() {
      const id = store.nextId('organization');
      store.organizations.set(id, { id, name: 'Acme', status: 'active', overageEnabled: false, requireMfa: false, createdAt: store.now(), updatedAt: store.now() });
      return id;
    },
    async deleteOrganization(organizationId) {
      store.deleteOrganization(organizationId);
    },
    close: async () => undefined,
  };
});
