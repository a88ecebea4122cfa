import { InMemoryApiKeyRepository } from '../../adapters/in-memory/in-memory-api-key-repository';
import { InMemoryInvitationRepository } from '../../adapters/in-memory/in-memory-invitation-repository';
import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUserRepository } from '../../adapters/in-memory/in-memory-user-repository';
import { describeInvitationRepositoryContract } from './invitation-repository.contract';

describeInvitationRepositoryContract('in-memory', async () => {
  const store = new InMemoryStore();
  return {
    invitations: new InMemoryInvitationRepository(store),
    organizations: new InMemoryOrganizationRepository(store),
    users: new InMemoryUserRepository(store),
    apiKeys: new InMemoryApiKeyRepository(store),
    unitOfWork: store.unitOfWork,
    async deleteOrganization(id: number) {
      await store.unitOfWork.exclusive(() => store.deleteOrganization(id));
    },
    teardown: async () => undefined,
  };
});
