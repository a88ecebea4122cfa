import { InMemoryAiCapacity } from '../../adapters/in-memory/in-memory-ai-capacity';
import { InMemoryModelPriceRepository, InMemorySystemSettingsRepository } from '../../adapters/in-memory/in-memory-ai-settings';
import { aiTables } from '../../adapters/in-memory/in-memory-ai-tables';
import { InMemoryCopilotAdmission } from '../../adapters/in-memory/in-memory-copilot-admission';
import { InMemoryNoteRepository } from '../../adapters/in-memory/in-memory-note-repository';
import { InMemoryOrganizationRepository } from '../../adapters/in-memory/in-memory-organization-repository';
import { InMemoryPlanRepository } from '../../adapters/in-memory/in-memory-plan-repository';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemorySubscriptionRepository } from '../../adapters/in-memory/in-memory-subscription-repository';
import type { Database } from '../../adapters/postgres/database';
import { PostgresAiCapacity } from '../../adapters/postgres/postgres-ai-capacity';
import { PostgresCopilotAdmission } from '../../adapters/postgres/postgres-copilot-admission';
import { PostgresNoteRepository } from '../../adapters/postgres/postgres-note-repository';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresPlanRepository } from '../../adapters/postgres/postgres-plan-repository';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { PostgresSystemSettingsRepository } from '../../adapters/postgres/postgres-system-settings-repository';
import { EffectivePlanResolver } from '../../core/plans/effective-plan';
import { FakeClock } from '../support/fake-clock';
import type { CopilotAdmissionHarness } from './copilot-admission.contract';
import { inMemoryTenants, postgresTenants } from './tenants';

/** The admission over one InMemoryStore, reading through the store's own repositories. */
export function inMemoryAdmissionHarness(): CopilotAdmissionHarness {
  const clock = new FakeClock('2031-03-10T10:00:00.000Z');
  const store = new InMemoryStore({ clock });
  const notes = new InMemoryNoteRepository(store);
  const plans = new InMemoryPlanRepository(store);
  const subscriptions = new InMemorySubscriptionRepository(store);
  const organizations = new InMemoryOrganizationRepository(store);
  const systemSettings = new InMemorySystemSettingsRepository();
  const capacity = new InMemoryAiCapacity(store);
  const resolver = new EffectivePlanResolver({ plans, subscriptions, clock });
  const tables = aiTables(store);
  // As the migration seeds it.
  const prices = new InMemoryModelPriceRepository([{ model: 'gpt-5-mini', inputUsdPerMillion: 0.25, outputUsdPerMillion: 2 }]);
  return {
    admission: new InMemoryCopilotAdmission({ notes, plans: resolver, organizations, systemSettings, capacity, prices }),
    capacity,
    notes,
    plans,
    subscriptions,
    organizations,
    systemSettings,
    ...inMemoryTenants(store),
    reservationCount: async (organizationId) => [...tables.reservations.values()].filter((row) => row.organization_id === organizationId).length,
    close: async () => undefined,
  };
}

/** The admission over a migrated database; `close` is the caller's (drop or close it). */
export function postgresAdmissionHarness(database: Database, close: () => Promise<void>): CopilotAdmissionHarness {
  return {
    admission: new PostgresCopilotAdmission(database),
    capacity: new PostgresAiCapacity(database),
    notes: new PostgresNoteRepository(database),
    plans: new PostgresPlanRepository(database),
    subscriptions: new PostgresSubscriptionRepository(database),
    organizations: new PostgresOrganizationRepository(database),
    systemSettings: new PostgresSystemSettingsRepository(database),
    ...postgresTenants(database),
    async reservationCount(organizationId) {
      const [row] = await database.select<{ count: string }>('select count(*) as count from ai_reservation where organization_id = $1', [organizationId]);
      return Number(row!.count);
    },
    close,
  };
}
