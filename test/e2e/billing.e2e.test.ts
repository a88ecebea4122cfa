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
    session = await sessions.loginAs('member', await sessions.newOrganization());
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
 * APP_STRIPE_API_BASE_URL pointing the real SDK at the local Stripe fake.
 */
describe.skipIf(!postgres)('billing with Stripe (against the Stripe fake)', () => {
  let fake: StripeFake;
  let app: TestApp;
  let organizationId: number;
  let readonlyUser: TestSession;
  let admin: TestSession;

  const subscriptionRow = async (org = organizationId) =>
    (await app.db!.database.select<Record<string, unknown>>('select * from subscription where organization_id = $1', [org]))[0];

  beforeAll(async () => {
    fake = await startStripeFake({ apiKey: API_KEY });
    app = await startTestApp({ APP_STRIPE_API_KEY: API_KEY, APP_STRIPE_WEBHOOK_SECRET: SECRET, APP_STRIPE_API_BASE_URL: fake.url });
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
    const res = await checkout(app.url, { price_id: 'price_basic' }, readonlyUser);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    const body = (await res.json()) as { url: string };
    expect(Object.keys(body)).toEqual(['url']);
    expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(fake.protocolErrors).toEqual([]);
    expect(fake.customerCalls).toHaveLength(1);
    expect(fake.customerCalls[0]).toMatchObject({ idempotencyKey: `tenantkit-organization-${organizationId}-customer`, form: { 'metadata[organization_id]': String(organizationId) } });
    const customerId = (await subscriptionRow())!.stripe_customer_id;
    expect(fake.customers.has(customerId as string)).toBe(true);
    const call = fake.checkouts.at(-1)!;
    expect(call.idempotencyKey).toMatch(/^checkout-[0-9a-f]{64}$/);
    expect(call.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_basic',
      client_reference_id: String(organizationId),
      customer: customerId,
      success_url: `${app.config.baseWebUrl}/billing?checkout=success`,
      cancel_url: `${app.config.baseWebUrl}/billing?checkout=cancelled`,
    });
  });

  it('reuses the customer for every later checkout and the portal', async () => {
    expect((await checkout(app.url, { price_id: 'price_pro' }, readonlyUser)).status).toBe(200);
    const res = await send(app.url, '/subscription/portal', { method: 'POST', headers: { Cookie: `session_id=${admin.token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: expect.stringMatching(/^https:\/\/billing\.stripe\.com\/p\/session\//) });
    expect(fake.customerCalls).toHaveLength(1);
    const customerId = (await subscriptionRow())!.stripe_customer_id;
    expect(fake.portalCalls.at(-1)?.form).toEqual({ customer: customerId, return_url: `${app.config.baseWebUrl}/billing` });
  });

  it('refuses the portal below org_admin', async () => {
    const res = await send(app.url, '/subscription/portal', { method: 'POST', headers: { Cookie: `session_id=${readonlyUser.token}` } });
    await expectErrorResponse(res, 403, 'ACCESS_DENIED');
  });

  it('refuses a caller without a session', async () => {
    const before = fake.checkouts.length;
    const res = await checkout(app.url, { price_id: 'price_basic' });
    expectSecurityHeaders(res);
    await expectErrorResponse(res, 401, 'UNAUTHORIZED');
    expect(fake.checkouts.length).toBe(before);
  });

  it.each([[{}], [{ price_id: '' }], [{ price_id: '   ' }], [{ price_id: 'p'.repeat(256) }], [{ price_id: 42 }]])('answers 422 for the body %j', async (body) => {
    const res = await checkout(app.url, body, readonlyUser);
    const error = await expectErrorResponse(res, 422, 'VALIDATION_ERROR');
    expect(error.details).toHaveProperty(['body.price_id']);
  });

  it('answers 422 on body.price_id when Stripe does not know the price', async () => {
    fake.failNext('param-error');
    const error = await expectErrorResponse(await checkout(app.url, { price_id: 'price_gone' }, readonlyUser), 422, 'VALIDATION_ERROR');
    expect(error.details).toEqual({ 'body.price_id': expect.any(String) });
  });

  it('answers a Stripe outage with 503 SERVICE_UNAVAILABLE, not 500', async () => {
    fake.failNext('server-error');
    const res = await checkout(app.url, { price_id: 'price_basic' }, readonlyUser);
    expectSecurityHeaders(res);
    expect(res.headers.get('retry-after')).toBe('30');
    await expectErrorResponse(res, 503, 'SERVICE_UNAVAILABLE');
  });

  it('activates the organization on a signed checkout.session.completed', async () => {
    const { payload, signature } = signed(checkoutCompleted('evt_e2e_checkout', organizationId), SECRET);
    const res = await webhook(app.url, payload, signature);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    expect(await res.json()).toEqual({ received: true });
    // The customer stored at checkout stays; the subscription id is learnt from the event.
    expect(await subscriptionRow()).toMatchObject({ status: 'active', stripe_customer_id: expect.stringMatching(/^cus_/), stripe_subscription_id: 'sub_test_1' });
  });

  it('processes the same event only once', async () => {
    const event = subscriptionEvent('evt_e2e_dup', 'customer.subscription.updated', { organizationId, status: 'past_due', created: 1_795_000_100 });
    const { payload, signature } = signed(event, SECRET);
    expect((await webhook(app.url, payload, signature)).status).toBe(200);
    const first = await subscriptionRow();
    expect(first).toMatchObject({ status: 'past_due' });
    expect((await webhook(app.url, payload, signature)).status).toBe(200);
    expect(await subscriptionRow()).toEqual(first); // updated_at unchanged: not applied again
    const events = await app.db!.database.select('select * from billing_event where event_id = $1', ['evt_e2e_dup']);
    expect(events).toHaveLength(1);
  });

  it('follows customer.subscription.deleted to canceled', async () => {
    const event = subscriptionEvent('evt_e2e_deleted', 'customer.subscription.deleted', { organizationId, status: 'canceled', created: 1_795_000_200 });
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
    const payload = JSON.stringify(subscriptionEvent('evt_forged', 'customer.subscription.updated', { organizationId, status: 'active', created: 1_795_999_999 }));
    const res = await webhook(app.url, payload, signature);
    expectSecurityHeaders(res);
    await expectErrorResponse(res, 400, 'MALFORMED_REQUEST');
    expect(await subscriptionRow()).toEqual(before);
    expect(await app.db!.database.select('select * from billing_event where event_id = $1', ['evt_forged'])).toHaveLength(0);
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
