import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCompleted, otherEvent, signed, subscriptionEvent } from '../builders/stripe-events';
import { startStripeFake, type StripeFake } from '../fakes/stripe-fake';
import { startTestApp, type TestApp } from '../support/app';
import { expectErrorResponse, expectSecurityHeaders } from '../support/http-assertions';
import { requirePostgres } from '../support/postgres';
import { testSessions, type TestSession } from '../support/sessions';

const API_KEY = 'sk_test_e2e';
const SECRET = 'whsec_e2e_signing_secret';

const send = (base: string, path: string, init: RequestInit = {}) => fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000), ...init });

const checkout = (base: string, body: unknown, session?: TestSession) =>
  send(base, '/subscription/checkout', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(session ? { Cookie: `session_id=${session.token}` } : {}) },
    body: JSON.stringify(body),
  });

const webhook = (base: string, payload: string, signature?: string) =>
  send(base, '/webhooks/stripe', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...(signature === undefined ? {} : { 'Stripe-Signature': signature }) },
    body: payload,
  });

const postgres = await requirePostgres();

describe.skipIf(!postgres)('billing without Stripe settings', () => {
  let app: TestApp;
  let session: TestSession;

  beforeAll(async () => {
    app = await startTestApp();
    const sessions = testSessions(app.db!.database);
    session = await sessions.loginAs('org_admin', await sessions.newOrganization());
  });
  afterAll(async () => app?.close());

  it('answers checkout with 503 SERVICE_UNAVAILABLE and Retry-After', async () => {
    const res = await checkout(app.url, { price_id: 'price_basic' }, session);
    expectSecurityHeaders(res);
    expect(res.headers.get('retry-after')).toBe('3600');
    await expectErrorResponse(res, 503, 'SERVICE_UNAVAILABLE');
  });

  it('answers the webhook with 503 SERVICE_UNAVAILABLE and Retry-After', async () => {
    const { payload, signature } = signed(otherEvent('evt_unset'), SECRET);
    const res = await webhook(app.url, payload, signature);
    expectSecurityHeaders(res);
    expect(res.headers.get('retry-after')).toBe('3600');
    await expectErrorResponse(res, 503, 'SERVICE_UNAVAILABLE');
  });

  it('still asks for a session first', async () => {
    await expectErrorResponse(await checkout(app.url, { price_id: 'price_basic' }), 401, 'UNAUTHORIZED');
  });
});

/**
 * The production composition, exactly as `npm start` builds it, with Stripe settings and
 * APP_STRIPE_API_BASE_URL pointing the real SDK at the local Stripe fake (which sells `price_X` as
 * the product `prod_X`; the beforeAll links two seeded plans to two such products).
 */
describe.skipIf(!postgres)('billing with Stripe (against the Stripe fake)', () => {
  let fake: StripeFake;
  let app: TestApp;
  let organizationId: number;
  let readonlyUser: TestSession;
  let admin: TestSession;
  let customer: string;

  const subscriptionRow = async (org = organizationId) =>
    (await app.db!.database.select<Record<string, unknown>>('select * from subscription where organization_id = $1', [org]))[0];
  const portal = (session: TestSession) => send(app.url, '/subscription/portal', { method: 'POST', headers: { Cookie: `session_id=${session.token}` } });
  const errorLogs = () => app.logs().filter((line) => (line.level as number) >= 50);
  const deliver = (event: unknown) => {
    const { payload, signature } = signed(event, SECRET);
    return webhook(app.url, payload, signature);
  };

  beforeAll(async () => {
    fake = await startStripeFake({ apiKey: API_KEY });
    app = await startTestApp({ APP_STRIPE_API_KEY: API_KEY, APP_STRIPE_WEBHOOK_SECRET: SECRET, APP_STRIPE_API_BASE_URL: fake.url });
    await app.db!.database.run(`update plan set stripe_product_id = 'prod_basic', updated_at = now() where name = 'Professional'`, []);
    await app.db!.database.run(`update plan set stripe_product_id = 'prod_pro', updated_at = now() where name = 'Premium'`, []);
    const sessions = testSessions(app.db!.database);
    organizationId = await sessions.newOrganization();
    readonlyUser = await sessions.loginAs('readonly', organizationId);
    admin = await sessions.loginAs('org_admin', organizationId);
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it("returns the Stripe Checkout URL for the caller's organization, as its one Stripe customer", async () => {
    const res = await checkout(app.url, { price_id: 'price_basic' }, admin);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    const body = (await res.json()) as { url: string };
    expect(Object.keys(body)).toEqual(['url']);
    expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(fake.protocolErrors).toEqual([]);
    expect(fake.priceLookups.at(-1)).toBe('price_basic');
    expect(fake.customerCalls).toHaveLength(1);
    expect(fake.customerCalls[0]).toMatchObject({ idempotencyKey: `tenantkit-organization-${organizationId}-customer`, form: { 'metadata[organization_id]': String(organizationId) } });
    customer = (await subscriptionRow())!.stripe_customer_id as string;
    expect(fake.customers.has(customer)).toBe(true);
    const call = fake.checkouts.at(-1)!;
    expect(call.idempotencyKey).toMatch(/^checkout-[0-9a-f]{64}$/);
    expect(call.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_basic',
      client_reference_id: String(organizationId),
      customer,
      success_url: `${app.config.baseWebUrl}/billing?checkout=success`,
      cancel_url: `${app.config.baseWebUrl}/billing?checkout=cancelled`,
    });
  });

  it('reuses the customer for every later checkout and the portal', async () => {
    expect((await checkout(app.url, { price_id: 'price_pro' }, admin)).status).toBe(200);
    const res = await portal(admin);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: expect.stringMatching(/^https:\/\/billing\.stripe\.com\/p\/session\//) });
    expect(fake.customerCalls).toHaveLength(1);
    expect(fake.portalCalls.at(-1)?.form).toEqual({ customer, return_url: `${app.config.baseWebUrl}/billing` });
  });

  it('refuses the portal below org_admin', async () => {
    await expectErrorResponse(await portal(readonlyUser), 403, 'ACCESS_DENIED');
  });

  it.each(['readonly', 'member'] as const)('refuses checkout to a %s, asking Stripe nothing', async (role) => {
    const before = [fake.checkouts.length, fake.priceLookups.length];
    const caller = role === 'readonly' ? readonlyUser : await testSessions(app.db!.database).loginAs('member', organizationId);
    await expectErrorResponse(await checkout(app.url, { price_id: 'price_basic' }, caller), 403, 'ACCESS_DENIED');
    expect([fake.checkouts.length, fake.priceLookups.length]).toEqual(before);
  });

  it('refuses a caller without a session', async () => {
    const before = fake.checkouts.length;
    const res = await checkout(app.url, { price_id: 'price_basic' });
    expectSecurityHeaders(res);
    await expectErrorResponse(res, 401, 'UNAUTHORIZED');
    expect(fake.checkouts.length).toBe(before);
  });

  it.each([[{}], [{ price_id: '' }], [{ price_id: '   ' }], [{ price_id: 'p'.repeat(256) }], [{ price_id: 42 }]])('answers 422 for the body %j', async (body) => {
    const res = await checkout(app.url, body, admin);
    const error = await expectErrorResponse(res, 422, 'VALIDATION_ERROR');
    expect(error.details).toHaveProperty(['body.price_id']);
  });

  it.each([
    ['Stripe does not know', 'price_gone', () => fake.failNext('param-error')],
    ['sells a product no plan is sold as', 'price_elsewhere', () => undefined],
    ['no longer sells (archived)', 'price_archived', () => fake.archivePrice('price_archived')],
    ['sells as a retired plan', 'price_retired', () => undefined],
  ])('answers 422 on body.price_id for a price Stripe %s, opening no session', async (_label, priceId, arrange) => {
    await app.db!.database.run(`insert into plan (name, features, stripe_product_id, is_default, is_active, created_at, updated_at)
      values ('Retired', '{}'::jsonb, 'prod_retired', false, false, now(), now()) on conflict do nothing`, []);
    arrange();
    const before = fake.checkouts.length;
    const error = await expectErrorResponse(await checkout(app.url, { price_id: priceId }, admin), 422, 'VALIDATION_ERROR');
    expect(error.details).toEqual({ 'body.price_id': expect.any(String) });
    expect(fake.checkouts.length).toBe(before);
  });

  it('answers a Stripe outage with 503 SERVICE_UNAVAILABLE, not 500', async () => {
    fake.failNext('server-error');
    const res = await checkout(app.url, { price_id: 'price_basic' }, admin);
    expectSecurityHeaders(res);
    expect(res.headers.get('retry-after')).toBe('30');
    await expectErrorResponse(res, 503, 'SERVICE_UNAVAILABLE');
  });

  it('activates the organization on a signed checkout.session.completed', async () => {
    const { payload, signature } = signed(checkoutCompleted('evt_e2e_checkout', organizationId, { customer }), SECRET);
    const res = await webhook(app.url, payload, signature);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    expect(await res.json()).toEqual({ received: true });
    // The customer stored at checkout stays; the subscription id is learnt from the event.
    expect(await subscriptionRow()).toMatchObject({ status: 'active', stripe_customer_id: customer, stripe_subscription_id: 'sub_test_1' });
  });

  it('refuses a second subscription checkout while one is live: 409 CONFLICT, plans change in the portal', async () => {
    const before = fake.checkouts.length;
    const error = await expectErrorResponse(await checkout(app.url, { price_id: 'price_pro' }, admin), 409, 'CONFLICT');
    expect(error.details).toEqual({ reason: 'subscription_exists' });
    expect(fake.checkouts.length).toBe(before);
  });

  it('processes the same event only once', async () => {
    const event = subscriptionEvent('evt_e2e_dup', 'customer.subscription.updated', { organizationId, customer, status: 'past_due', created: 1_795_000_100 });
    const { payload, signature } = signed(event, SECRET);
    expect((await webhook(app.url, payload, signature)).status).toBe(200);
    const first = await subscriptionRow();
    expect(first).toMatchObject({ status: 'past_due' });
    expect((await webhook(app.url, payload, signature)).status).toBe(200);
    expect(await subscriptionRow()).toEqual(first); // updated_at unchanged: not applied again
    const events = await app.db!.database.select('select * from billing_event where event_id = $1', ['evt_e2e_dup']);
    expect(events).toHaveLength(1);
  });

  it("applies an event to its customer's organization only: another organization named in its metadata gets nothing", async () => {
    const sessions = testSessions(app.db!.database);
    const other = await sessions.newOrganization();
    const otherAdmin = await sessions.loginAs('org_admin', other);
    expect((await portal(otherAdmin)).status).toBe(200);
    const otherCustomer = (await subscriptionRow(other))!.stripe_customer_id as string;
    const [mine, theirs] = [await subscriptionRow(), await subscriptionRow(other)];

    const theft = subscriptionEvent('evt_e2e_theft', 'customer.subscription.updated', { organizationId: other, customer, status: 'active', productId: 'prod_pro', created: 1_795_000_150 });
    const res = await deliver(theft);
    expect(res.status).toBe(200);
    expect(await subscriptionRow()).toEqual(mine);
    expect(await subscriptionRow(other)).toEqual(theirs);
    expect(app.logs().some((line) => line.event_id === 'evt_e2e_theft' && line.named_organization_id === other && (line.level as number) === 40)).toBe(true);
    // The other organization's portal still opens its own billing.
    expect((await portal(otherAdmin)).status).toBe(200);
    expect(fake.portalCalls.at(-1)?.form.customer).toBe(otherCustomer);
  });

  it('keeps the plan of the live subscription when another, ended subscription of the customer reports', async () => {
    const ended = subscriptionEvent('evt_e2e_other_ended', 'customer.subscription.deleted', { organizationId, customer, status: 'canceled', created: 1_795_000_160 });
    const otherSubscription = { ...ended, data: { object: { ...ended.data.object, id: 'sub_test_2' } } };
    expect((await deliver(otherSubscription)).status).toBe(200);
    expect(await subscriptionRow()).toMatchObject({ status: 'past_due', stripe_subscription_id: 'sub_test_1' });
  });

  it('follows customer.subscription.deleted to canceled', async () => {
    const event = subscriptionEvent('evt_e2e_deleted', 'customer.subscription.deleted', { organizationId, customer, status: 'canceled', created: 1_795_000_200 });
    const { payload, signature } = signed(event, SECRET);
    expect((await webhook(app.url, payload, signature)).status).toBe(200);
    expect(await subscriptionRow()).toMatchObject({ status: 'canceled' });
  });

  it.each([
    ['a wrong signature', signed(otherEvent('evt_bad'), 'whsec_not_ours').signature],
    ['garbage', 't=1,v1=deadbeef'],
    ['no header', undefined],
  ])('answers 400 MALFORMED_REQUEST for %s, changing nothing', async (_label, signature) => {
    const before = await subscriptionRow();
    const payload = JSON.stringify(subscriptionEvent('evt_forged', 'customer.subscription.updated', { organizationId, customer, status: 'active', created: 1_795_999_999 }));
    const res = await webhook(app.url, payload, signature);
    expectSecurityHeaders(res);
    await expectErrorResponse(res, 400, 'MALFORMED_REQUEST');
    expect(await subscriptionRow()).toEqual(before);
    expect(await app.db!.database.select('select * from billing_event where event_id = $1', ['evt_forged'])).toHaveLength(0);
  });

  it('answers every malformed Stripe-Signature header 400 MALFORMED_REQUEST, logging no error and no stack', async () => {
    const { payload, signature } = signed(otherEvent('evt_fuzz'), SECRET);
    const now = Math.floor(Date.now() / 1000);
    const v1 = signature.slice(signature.indexOf('v1=') + 3);
    const headers = [`t=${now},v1=`, `t=${now},v1`, `t=${now}`, `t=${now},v1=,v1=`, `t=,v1=${v1}`, `t=abc,v1=${v1}`, `t=${now},v1=${v1.slice(1)}`, `t=${now},v1==`, ',', '=', `t=${'9'.repeat(300)},v1=${v1}`];
    const errorsBefore = errorLogs().length;
    for (const header of headers) {
      const res = await webhook(app.url, payload, header);
      expect(res.status, header).toBe(400);
      expect(await res.json(), header).toMatchObject({ code: 'MALFORMED_REQUEST' });
    }
    expect(errorLogs().slice(errorsBefore)).toEqual([]);
    expect(app.logs().some((line) => JSON.stringify(line).includes('secureCompare'))).toBe(false);
  });

  it('acknowledges an event type it does not handle and ignores it', async () => {
    const before = await subscriptionRow();
    const { payload, signature } = signed(otherEvent('evt_e2e_invoice'), SECRET);
    const res = await webhook(app.url, payload, signature);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: true });
    expect(await subscriptionRow()).toEqual(before);
  });

  it.each([
    ['{}', {}],
    ['[]', []],
    ['null', null],
    ['an id over 255 characters', { ...otherEvent('evt_long'), id: `evt_${'x'.repeat(300)}` }],
  ])('answers a correctly signed but malformed event (%s) with 400, not a 500 Stripe would redeliver', async (_label, event) => {
    const { payload, signature } = signed(event, SECRET);
    await expectErrorResponse(await webhook(app.url, payload, signature), 400, 'MALFORMED_REQUEST');
  });
});
