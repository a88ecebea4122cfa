import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signed, subscriptionEvent } from '../builders/stripe-events';
import { startStripeFake, type StripeFake } from '../fakes/stripe-fake';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { apiSuite } from '../support/api-suite';
import { expectApiError } from '../support/http-assertions';

/** Plans, the current plan and its usage, and a subscription moving an organization between plans, through the generated client. */
const API_KEY = 'sk_test_plans_e2e';
const SECRET = 'whsec_plans_e2e';
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('plans over HTTP', () => {
  // The fake starts first and stops last: hooks registered later run after it on the way in and
  // before it on the way out.
  let fake: StripeFake;
  beforeAll(async () => {
    fake = await startStripeFake({ apiKey: API_KEY });
  });
  afterAll(() => fake?.close());

  const suite = apiSuite(() => ({ APP_STRIPE_API_KEY: API_KEY, APP_STRIPE_WEBHOOK_SECRET: SECRET, APP_STRIPE_API_BASE_URL: fake.url }));
  const { as, clientFor } = suite;

  const webhook = (event: unknown) => {
    const { payload, signature } = signed(event, SECRET);
    return suite.app.request('/webhooks/stripe', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload });
  };

  it('lists the seeded plans and the feature catalogue to any member of an organization', async () => {
    const { api } = await as('readonly');
    const plans = await api.GET('/plans');
    expect(plans.response.status).toBe(200);
    expect(plans.data!.slice(0, 3).map((p) => [p.name, p.is_default, p.is_active, p.features])).toEqual([
      ['Free', true, true, { max_notes: 10, max_projects: -1, token_limit: 0, enable_ai: false }],
      ['Professional', false, true, { max_notes: 1000, max_projects: -1, token_limit: 2_000_000, enable_ai: true }],
      ['Premium', false, true, { max_notes: -1, max_projects: -1, token_limit: 20_000_000, enable_ai: true }],
    ]);
    expect(Object.keys(plans.data![0]!).sort()).toEqual(
      ['created_at', 'description', 'features', 'id', 'is_active', 'is_default', 'name', 'stripe_product_id', 'updated_at'].sort(),
    );
    expect(plans.data![0]!.created_at).toMatch(ISO);
    const features = await api.GET('/plans/features');
    expect(features.data).toEqual([
      { key: 'max_notes', kind: 'limit', default: 0, label: 'Notes' },
      { key: 'max_projects', kind: 'limit', default: -1, label: 'Projects' },
      { key: 'token_limit', kind: 'metered', default: 0, label: 'AI tokens per usage period' },
      { key: 'enable_ai', kind: 'flag', default: false, label: 'AI copilot' },
    ]);
    expectApiError(await api.GET('/plans', { params: { query: { include_inactive: 'true' } } }), 403, 'ACCESS_DENIED');
    expectApiError(await clientFor().GET('/plans'), 401, 'UNAUTHORIZED');
  });

  it('reports the current plan, period and usage of an organization without a subscription', async () => {
    const { api } = await as('readonly');
    const current = await api.GET('/plans/current');
    expect(current.response.status).toBe(200);
    const now = new Date();
    expect(current.data).toEqual({
      plan: expect.objectContaining({ name: 'Free', is_default: true }),
      subscription: null,
      period: {
        start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString(),
        end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      },
      usage: {
        max_notes: { kind: 'limit', limit: 10, used: 0 },
        max_projects: { kind: 'limit', limit: -1, used: 0 },
        token_limit: { kind: 'metered', limit: 0, used: 0 },
        enable_ai: { kind: 'flag', limit: false },
      },
    });
  });

  it('lets a sys_admin create, change and retire plans, with the contract refusals', async () => {
    const { api } = await as('sys_admin');
    const created = await api.POST('/plans', { body: { name: '  Team  ', description: 'For teams', features: { max_notes: 50 }, stripe_product_id: 'prod_team_e2e' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({
      name: 'Team',
      features: { max_notes: 50, max_projects: -1, token_limit: 0, enable_ai: false },
      stripe_product_id: 'prod_team_e2e',
      is_default: false,
      is_active: true,
    });
    const id = created.data!.id;
    const merged = await api.PUT('/plans/{plan_id}', { params: { path: { plan_id: id } }, body: { features: { enable_ai: true } } });
    expect(merged.data!.features).toEqual({ max_notes: 50, max_projects: -1, token_limit: 0, enable_ai: true });

    expectApiError(await api.POST('/plans', { body: { name: 'team' } }), 409, 'CONFLICT');
    expectApiError(await api.POST('/plans', { body: { name: 'Other', stripe_product_id: 'prod_team_e2e' } }), 409, 'CONFLICT');
    const bad = expectApiError(
      await api.POST('/plans', { body: { name: 'Bad', features: { max_notes: -2, token_limit: 1.5, enable_ai: 'yes', max_widgets: 1 } as never } }),
      422,
      'VALIDATION_ERROR',
    );
    expect(Object.keys(bad).sort()).toEqual(['body.features.enable_ai', 'body.features.max_notes', 'body.features.max_widgets', 'body.features.token_limit']);
    expectApiError(await api.PUT('/plans/{plan_id}', { params: { path: { plan_id: 999_999 } }, body: { name: 'x' } }), 404, 'RESOURCE_NOT_FOUND');

    const retired = await api.PUT('/plans/{plan_id}', { params: { path: { plan_id: id } }, body: { is_active: false } });
    expect(retired.data!.is_active).toBe(false);
    expect((await api.GET('/plans')).data!.map((p) => p.name)).not.toContain('Team');
    expect((await api.GET('/plans', { params: { query: { include_inactive: 'true' } } })).data!.map((p) => p.name)).toContain('Team');
    expectApiError(await api.POST('/plans/{plan_id}/default', { params: { path: { plan_id: id } } }), 409, 'CONFLICT');

    const free = (await api.GET('/plans')).data!.find((p) => p.is_default)!;
    expectApiError(await api.PUT('/plans/{plan_id}', { params: { path: { plan_id: free.id } }, body: { is_active: false } }), 409, 'CONFLICT');
  });

  it('refuses plan changes below sys_admin', async () => {
    const { api } = await as('org_admin');
    expectApiError(await api.POST('/plans', { body: { name: 'Mine' } }), 403, 'ACCESS_DENIED');
    expectApiError(await api.PUT('/plans/{plan_id}', { params: { path: { plan_id: 1 } }, body: { name: 'x' } }), 403, 'ACCESS_DENIED');
    expectApiError(await api.POST('/plans/{plan_id}/default', { params: { path: { plan_id: 1 } } }), 403, 'ACCESS_DENIED');
  });

  it('moves an organization to Professional on a subscription webhook, and back to Free on its cancellation', async () => {
    const { api: admin } = await as('sys_admin');
    const professional = (await admin.GET('/plans')).data!.find((p) => p.name === 'Professional')!;
    await admin.PUT('/plans/{plan_id}', { params: { path: { plan_id: professional.id } }, body: { stripe_product_id: 'prod_pro_e2e' } });

    const { api, organizationId } = await as('member');
    const start = Math.floor(Date.now() / 1000) - 86_400;
    const end = start + 30 * 86_400;
    // The organization's Stripe customer, recorded as a checkout records it: events are applied to
    // the organization that owns their customer, never to one their metadata names.
    await new PostgresSubscriptionRepository(suite.app.db!.database).saveCustomer(organizationId, `cus_e2e_${organizationId}`, new Date());
    const created = subscriptionEvent('evt_plans_e2e_1', 'customer.subscription.created', {
      organizationId,
      customer: `cus_e2e_${organizationId}`,
      productId: 'prod_pro_e2e',
      priceId: 'price_pro_e2e',
      periodStart: start,
      periodEnd: end,
      cancelAtPeriodEnd: true,
      created: start,
    });
    expect((await webhook(created)).status).toBe(200);
    const subscribed = (await api.GET('/plans/current')).data!;
    expect(subscribed.plan.name).toBe('Professional');
    expect(subscribed.subscription).toEqual({ status: 'active', current_period_end: new Date(end * 1000).toISOString(), cancel_at_period_end: true });
    expect(subscribed.period).toEqual({ start: new Date(start * 1000).toISOString(), end: new Date(end * 1000).toISOString() });
    expect(subscribed.usage.max_notes).toEqual({ kind: 'limit', limit: 1000, used: 0 });

    const deleted = subscriptionEvent('evt_plans_e2e_2', 'customer.subscription.deleted', {
      organizationId,
      customer: `cus_e2e_${organizationId}`,
      productId: 'prod_pro_e2e',
      status: 'canceled',
      periodStart: start,
      periodEnd: end,
      created: start + 60,
    });
    expect((await webhook(deleted)).status).toBe(200);
    // The older event, delivered again late, changes nothing.
    expect((await webhook({ ...created, id: 'evt_plans_e2e_late' })).status).toBe(200);
    const cancelled = (await api.GET('/plans/current')).data!;
    expect(cancelled.plan.name).toBe('Free');
    expect(cancelled.subscription).toMatchObject({ status: 'canceled' });
  });

  it('answers GET /config publicly with what this deployment offers', async () => {
    const res = await clientFor().GET('/config');
    expect(res.response.status).toBe(200);
    expect(res.data).toEqual({ mode: 'b2c', signup: true, identity_provider: false, billing: true, ai: false });
  });
});
