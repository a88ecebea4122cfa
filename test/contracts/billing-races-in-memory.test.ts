import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemorySubscriptionRepository } from '../../adapters/in-memory/in-memory-subscription-repository';
import { InMemoryAuditLog } from '../../adapters/in-memory/in-memory-audit-log';
import { FakeClock } from '../support/fake-clock';
import { describeBillingRaces } from './billing-races.contract';

// Transactions run one at a time here, in the order they start: both orders are played once.
describeBillingRaces(
  'in-memory',
  async () => {
    const clock = new FakeClock();
    const store = new InMemoryStore({ clock });
    const organizations = new InMemoryOrganizationRepository(store);
    const auditLog = new InMemoryAuditLog(store);
    return {
      audit: auditLog,
      events: auditLog,
      subscriptions: new InMemorySubscriptionRepository(store),
      organizations,
      unitOfWork: store.unitOfWork,
      clock,
      async newOrganization() {
        const organizationId = (await organizations.create({ name: 'Acme' })).id;
        return { organizationId, adminId: 1 };
      },
    };
  },
  { rounds: 1 },
);
