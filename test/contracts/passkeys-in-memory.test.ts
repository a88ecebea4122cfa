import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUserRepository } from '../../adapters/in-memory/in-memory-user-repository';
import { InMemoryPasskeyRepository } from '../../adapters/in-memory/in-memory-passkey-repository';
import { InMemoryPasskeyChallengeStore } from '../../adapters/in-memory/in-memory-passkey-challenge-store';
import { describePasskeyStoresContract } from './passkey-stores.contract';

describePasskeyStoresContract('in-memory', async () => {
  const store = new InMemoryStore();
  return {
    organizations: new InMemoryOrganizationRepository(store),
    users: new InMemoryUserRepository(store),
    passkeys: new InMemoryPasskeyRepository(store),
    challenges: new InMemoryPasskeyChallengeStore(store),
    teardown: async () => undefined,
  };
});
