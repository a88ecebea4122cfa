import { InMemoryNoteRepository } from '../../adapters/in-memory/in-memory-note-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { noteRepositoryContract } from './note-repository.contract';
import { inMemoryTenants } from './tenants';

noteRepositoryContract('in-memory', async () => {
  const store = new InMemoryStore();
  return { repository: new InMemoryNoteRepository(store), ...inMemoryTenants(store), close: async () => undefined };
});
