import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUserRepository } from '../../adapters/in-memory/in-memory-user-repository';
import { InMemoryApiKeyRepository } from '../../adapters/in-memory/in-memory-api-key-repository';
import { describeApiKeyRepositoryContract } from './api-key-repository.contract';

describeApiKeyRepositoryContract('in-memory', async () => {
  const store = new InMemoryStore();
  return {
    organizations: new InMemoryOrganizationRepository(store),
    users: new InMemoryUserRepository(store),
    apiKeys: new InMemoryApiKeyRepository(store),
    teardown: async () => undefined,
  };
});
