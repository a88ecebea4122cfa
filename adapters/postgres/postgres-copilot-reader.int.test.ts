import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createTestDatabase, requirePostgres } from '../../test/support/postgres';
import { insertOrganization, insertUser } from '../../test/support/sessions';
import type { Database } from './database';
import { PostgresCopilotReader } from './postgres-copilot-reader';
import { PostgresNoteRepository } from './postgres-note-repository';
import { PostgresOrganizationRepository } from './postgres-organization-repository';
import { PostgresPlanRepository } from './postgres-plan-repository';
import { PostgresSubscriptionRepository } from './postgres-subscription-repository';
import { PostgresSystemSettingsRepository } from './postgres-system-settings-repository';

/** The copilot's one-statement read returns what the repositories' own reads return, row for row. */
const postgres = await requirePostgres();

describe.skipIf(!postgres)('PostgresCopilotReader', () => {
  let database: Database;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const db = await createTestDatabase();
    database = db.database;
    drop = () => db.drop();
  });
  afterAll(() => drop?.());

  async function expectSameAsRepositories(organizationId: number, userId: number, noteId: number) {
    const reads = await new PostgresCopilotReader(database).read({ organizationId, userId }, noteId, organizationId);
    const subscription = await new PostgresSubscriptionRepository(database).findByOrganization(organizationId);
    const plans = new PostgresPlanRepository(database);
    expect(reads).toEqual({
      note: await new PostgresNoteRepository(database).findById({ organizationId, userId }, noteId),
      subscription,
      productPlan: subscription?.productId ? await plans.findByStripeProduct(subscription.productId) : null,
      defaultPlan: await plans.findDefault(),
      organizationOverage: (await new PostgresOrganizationRepository(database).findSettings(organizationId))?.overageEnabled ?? false,
      systemOverage: (await new PostgresSystemSettingsRepository(database).get()).aiOverageEnabled,
    });
    return reads;
  }

  test('an organization without a subscription, its own note, someone else\'s and a missing one', async () => {
    const organizationId = await insertOrganization(database, 'Reader A');
    const userId = await insertUser(database, organizationId);
    const otherUser = await insertUser(database, organizationId);
    const [note] = await database.select<{ id: number }>(
      `insert into note (organization_id, user_id, title, content, created_at, updated_at) values ($1, $2, 't', 'c', now(), now()) returning id`,
      [organizationId, userId],
    );
    const own = await expectSameAsRepositories(organizationId, userId, note!.id);
    expect(own.note?.id).toBe(note!.id);
    expect(own.subscription).toBeNull();
    expect((await expectSameAsRepositories(organizationId, otherUser, note!.id)).note).toBeNull();
    expect((await expectSameAsRepositories(organizationId, userId, 987_654)).note).toBeNull();
  });

  test('a subscription to a product sold as a plan, and one to a product no plan is sold as, with both overage switches on', async () => {
    const organizationId = await insertOrganization(database, 'Reader B');
    const userId = await insertUser(database, organizationId);
    await database.run(`update organization set overage_enabled = true where id = $1`, [organizationId]);
    await database.run(`update system_settings set ai_overage_enabled = true where id = 1`, []);
    await database.run(
      `insert into plan (name, description, features, stripe_product_id, is_default, is_active, created_at, updated_at)
       values ('Reader plan', 'd', '{"enable_ai": true}'::jsonb, 'prod_reader', false, true, now(), now())`,
      [],
    );
    await database.run(
      `insert into subscription (organization_id, status, product_id, current_period_start, current_period_end, cancel_at_period_end, event_at, updated_at)
       values ($1, 'past_due', 'prod_reader', now(), now() + interval '30 days', false, now(), now())`,
      [organizationId],
    );
    const subscribed = await expectSameAsRepositories(organizationId, userId, 1);
    expect(subscribed.productPlan?.stripeProductId).toBe('prod_reader');
    expect(subscribed.organizationOverage && subscribed.systemOverage).toBe(true);
    await database.run(`update subscription set product_id = 'prod_unlinked' where organization_id = $1`, [organizationId]);
    expect((await expectSameAsRepositories(organizationId, userId, 1)).productPlan).toBeNull();
    await database.run(`update system_settings set ai_overage_enabled = false where id = 1`, []);
  });
});
