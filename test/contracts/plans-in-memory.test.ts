import { InMemoryPlanRepository } from '../../adapters/in-memory/in-memory-plan-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { planRepositoryContract } from './plan-repository.contract';

planRepositoryContract('in-memory', async () => ({
  reset: async () => new InMemoryPlanRepository(new InMemoryStore()),
  close: async () => undefined,
}));
