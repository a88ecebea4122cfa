import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUserRepository } from '../../adapters/in-memory/in-memory-user-repository';
import { InMemoryAuditLog } from '../../adapters/in-memory/in-memory-audit-log';
import { FakeClock } from '../support/fake-clock';
import { describeAuditLogContract } from './audit-log.contract';

describeAuditLogContract('in-memory', async () => {
  const clock = new FakeClock();
  const store = new InMemoryStore({ clock });
  const log = new InMemoryAuditLog(store);
  return {
    organizations: new InMemoryOrganizationRepository(store),
    users: new InMemoryUserRepository(store),
    audit: log,
    events: log,
    unitOfWork: store.unitOfWork,
    clock,
    deleteOrganization: async (id) => void store.deleteOrganization(id),
    teardown: async () => undefined,
  };
});
