import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type AppConfig } from '../../app/config/config';
import { createContainer, isDependencyDown } from '../../app/container/container';
import { openInfrastructure } from '../../app/container/infrastructure';
import { TOKENS } from '../../app/container/tokens';
import { createHttpApp } from '../../app/http/app';
import { clientIpResolver } from '../../app/http/client-ip';
import { composeRoutes } from '../../app/server';
import { StripeBillingProvider } from '../../adapters/stripe/stripe-billing-provider';
import { checkoutCompleted, otherEvent, signed, subscriptionEvent } from '../builders/stripe-events';
import { startStripeFake, type StripeFake } from '../fakes/stripe-fake';
import { createMemoryLogger, startTestApp, TEST_APP_DEFAULTS, type TestApp } from '../support/app';
import { expectErrorResponse, expectSecurityHeaders } from '../support/http-assertions';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { testSessions, type TestSession } from '../support/sessions';

const API_KEY = 'sk_test_e2e';
const SECRET = 'whsec_e2e_signing_secret';

interface BillingApp {
  url: string;
  config: AppConfig;
  db: TestDatabase;
  close(): Promise<void>;
}

/**
 * The production composition (createContainer, composeRoutes, createHttpApp, as startServer does)
 * with Stripe settings, where only the provider is rebound: the same StripeBillingProvider,
 * pointed at the local Stripe fake instead of api.stripe.com.
 */
async function startBillingApp(fake: StripeFake): Promise<BillingApp> {
  const db = await createTestDatabase();
  const env = { ...TEST_APP_DEFAULTS, APP_DATABASE_URL: db.url, APP_STRIPE_API_KEY: API_KEY, APP_STRIPE_WEBHOOK_SECRET: SECRET };
  const { config } = loadConfig(env);
  const { logger } = createMemoryLogger();
  const infra = await openInfrastructure(config, logger);
  const container = createContainer(config, logger, infra);
  container
    .rebind(TOKENS.BillingProvider)
    .toConstantValue(new StripeBillingProvider({ apiKey: API_KEY, webhookSecret: SECRET, host: '127.0.0.1', port: fake.port, protocol: 'http', timeoutMs: 5_000 }));
  const app = createHttpApp({
    config,
    logger,
    routes: composeRoutes(container, config),
    authenticate: container.get(TOKENS.Authenticate),
    rateLimiter: container.get(TOKENS.RateLimiter),
    clientIp: clientIpResolver(config.trustedProxyHops),
    isDependencyDown,
  });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    config,
    db,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await container.unbindAllAsync();
      await infra.close();
      await db.drop();
    },
  };
}

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

describe.skipIf(!postgres)('billing with Stripe (against the Stripe fake)', () => {
  let fake: StripeFake;
  let app: BillingApp;
  let organizationId: number;
  let readonlyUser: TestSession;

  const subscriptionRow = async (org = organizationId) =>
    (await app.db.database.select<Record<string, unknown>>('select * from subscription where organization_id = $1', [org]))[0];

  beforeAll(async () => {
    fake = await startStripeFake({ apiKey: API_KEY });
    app = await startBillingApp(fake);
    const sessions = testSessions(app.db.database);
    organizationId = await sessions.newOrganization();
    readonlyUser = await sessions.loginAs('readonly', organizationId);
  });
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  it("returns the Stripe Checkout URL for the caller's organization", async () => {
    const res = await checkout(app.url, { price_id: 'price_basic' }, readonlyUser);
    expect(res.status).toBe(200);
    expectSecurityHeaders(res);
    const body = (await res.json()) as { url: string };
    expect(Object.keys(body)).toEqual(['url']);
    expect(body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    expect(fake.protocolErrors).toEqual([]);
    const call = fake.checkouts.at(-1)!;
    expect(call.idempotencyKey).toMatch(/^checkout-[0-9a-f]{64}$/);
    expect(call.form).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_basic',
      client_reference_id: String(organizationId),
      customer_email: expect.stringMatching(/@example\.test$/),
      success_url: `${app.config.baseWebUrl}/billing?checkout=success`,
      cancel_url: `${app.config.baseWebUrl}/billing?checkout=cancelled`,
    });
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
    expect(await subscriptionRow()).toMatchObject({
      status: 'active',
      stripe_customer_id: 'cus_test_1',
      stripe_subscription_id: 'sub_test_1',
      price_id: 'price_basic',
    });
  });

  it('processes the same event only once', async () => {
    const event = subscriptionEvent('evt_e2e_dup', 'customer.subscription.updated', { organizationId, status: 'past_due', created: 1_795_000_100 });
    const { payload, signature } = signed(event, SECRET);
    expect((await webhook(app.url, payload, signature)).status).toBe(200);
    const first = await subscriptionRow();
    expect(first).toMatchObject({ status: 'past_due' });
    expect((await webhook(app.url, payload, signature)).status).toBe(200);
    expect(await subscriptionRow()).toEqual(first); // updated_at unchanged: not applied again
    const events = await app.db.database.select('select * from billing_event where event_id = $1', ['evt_e2e_dup']);
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
    expect(await app.db.database.select('select * from billing_event where event_id = $1', ['evt_forged'])).toHaveLength(0);
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
