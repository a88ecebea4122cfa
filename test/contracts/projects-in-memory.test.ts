import { InMemoryProjectRepository } from '../../adapters/in-memory/in-memory-project-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { projectRepositoryContract } from './project-repository.contract';
import { inMemoryTenants } from './tenants';

projectRepositoryContract('in-memory', async () => {
  const store = new InMemoryStore();
  return { repository: new InMemoryProjectRepository(store), ...inMemoryTenants(store), close: async () => undefined };
});
