import { InMemoryNoteRepository } from '../../adapters/in-memory/in-memory-note-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { inMemoryTenants } from './in-memory-tenants';
import { noteRepositoryContract } from './note-repository.contract';

noteRepositoryContract('in-memory', async () => {
  const store = new InMemoryStore();
  return { repository: new InMemoryNoteRepository(store), ...inMemoryTenants(store), close: async () => undefined };
});
