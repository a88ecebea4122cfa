import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signed, subscriptionEvent } from '../builders/stripe-events';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-fake';
import { startStripeFake, type StripeFake } from '../fakes/stripe-fake';
import { startTestApp, type TestApp } from '../support/app';
import { copilotWorld, eventually, inputEstimateOf, readChunks, type Caller, type CopilotWorld } from '../support/copilot';
import { expectApiError, expectSecurityHeaders } from '../support/http-assertions';
import { requirePostgres } from '../support/postgres';

/**
 * What AI use costs an organization, end to end: the usage routes, credit packs bought through
 * the Stripe fake and spent after the allotment, the two overage switches and the meter events
 * overage becomes. The app runs with both fakes, as `npm start` would against OpenAI and Stripe.
 */
const postgres = await requirePostgres();
const STRIPE_KEY = 'sk_test_usage_e2e';
const SECRET = 'whsec_usage_e2e';
const METER = 'ai_tokens_e2e';
const PACKS = [
  { id: 'pack_small', name: 'Small AI pack', tokens: 5_000, amount_cents: 500, currency: 'usd' },
  { id: 'pack_large', name: 'Large AI pack', tokens: 50_000, amount_cents: 2_900, currency: 'eur' },
];

const improve = (caller: Caller, noteId: number) =>
  caller.api.POST('/notes/{note_id}/copilot/improve', { params: { path: { note_id: noteId } }, body: {}, parseAs: 'stream' as const });

/** One copilot call to its end, with the usage the fake reports. */
async function call(fake: OpenAiFake, caller: Caller, noteId: number, usage: { inputTokens: number; outputTokens: number }) {
  fake.script({ deltas: ['fine'], usage });
  const res = await improve(caller, noteId);
  expect(res.response.status).toBe(200);
  await readChunks(res.response.body!);
}

describe.skipIf(!postgres)('usage, credit packs and overage (OpenAI and Stripe fakes)', () => {
  let openai: OpenAiFake;
  let stripe: StripeFake;
  let app: TestApp;
  let world: CopilotWorld;
  let sysAdmin: Caller;

  beforeAll(async () => {
    openai = await startOpenAiFake();
    stripe = await startStripeFake({ apiKey: STRIPE_KEY });
    app = await startTestApp({
      APP_OPENAI_API_KEY: openai.apiKey,
      APP_OPENAI_BASE_URL: openai.url,
      APP_STRIPE_API_KEY: STRIPE_KEY,
      APP_STRIPE_WEBHOOK_SECRET: SECRET,
      APP_STRIPE_API_BASE_URL: stripe.url,
      APP_STRIPE_AI_METER_EVENT: METER,
      APP_AI_CREDIT_PACKS: JSON.stringify(PACKS),
    });
    world = copilotWorld(app);
    sysAdmin = await world.as('sys_admin');
  });
  afterAll(async () => {
    await app?.close();
    await openai?.close();
    await stripe?.close();
  });

  /** Settles after the response ends: wait until the organization has `count` usage rows. */
  const rowsOnceSettled = (organizationId: number, count: number) =>
    eventually(async () => {
      const rows = await world.usageRows(organizationId);
      return rows.length >= count ? rows : undefined;
    });

  const webhook = (payload: string, signature: string) =>
    app.request('/webhooks/stripe', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload });

  const summaryOf = async (caller: Caller) => {
    const res = await caller.api.GET('/usage/summary');
    expect(res.response.status).toBe(200);
    return res.data!;
  };

  /** Buys a pack the way a user does: checkout, pay in Stripe's page, come back and verify. */
  async function buyPack(admin: Caller, packId: string) {
    const checkout = await admin.api.POST('/billing/credit-packs/checkout', { body: { pack_id: packId } });
    expect(checkout.response.status).toBe(200);
    const sessionId = stripe.sessionIdFrom(checkout.data!.url);
    stripe.completeSession(sessionId);
    expect((await admin.api.POST('/billing/credit-packs/verify', { body: { session_id: sessionId } })).data).toEqual({ status: 'fulfilled' });
    return sessionId;
  }

  it('says ai: true in GET /config', async () => {
    expect(await (await app.request('/config')).json()).toMatchObject({ ai: true, billing: true });
  });

  describe('credit packs', () => {
    it('lists the configured packs to any member, readonly included', async () => {
      const readonly = await world.as('readonly');
      const res = await readonly.api.GET('/billing/credit-packs');
      expect(res.response.status).toBe(200);
      expectSecurityHeaders(res.response);
      expect(res.data).toEqual(PACKS);
    });

    it('starts a payment-mode checkout priced inline, naming the pack and its tokens; org_admin only', async () => {
      const admin = await world.as('org_admin');
      const member = await world.as('member', admin.organizationId);
      expectApiError(await member.api.POST('/billing/credit-packs/checkout', { body: { pack_id: 'pack_small' } }), 403, 'ACCESS_DENIED');

      const res = await admin.api.POST('/billing/credit-packs/checkout', { body: { pack_id: 'pack_large' } });
      expect(res.response.status).toBe(200);
      expect(res.data).toEqual({ url: expect.stringMatching(/^https:\/\/checkout\.stripe\.com\//) });
      const sessionId = stripe.sessionIdFrom(res.data!.url);
      expect(stripe.checkouts.at(-1)!.form).toMatchObject({
        mode: 'payment',
        client_reference_id: String(admin.organizationId),
        'line_items[0][price_data][currency]': 'eur',
        'line_items[0][price_data][unit_amount]': '2900',
        'line_items[0][price_data][product_data][name]': 'Large AI pack',
        'line_items[0][quantity]': '1',
        'metadata[pack_id]': 'pack_large',
        'metadata[tokens]': '50000',
        'metadata[organization_id]': String(admin.organizationId),
        'payment_intent_data[metadata][pack_id]': 'pack_large',
        success_url: `${app.config.baseWebUrl}/billing?credit_pack=success&session_id={CHECKOUT_SESSION_ID}`,
      });
      expect(stripe.checkouts.at(-1)!.form).not.toHaveProperty(['line_items[0][price]']);
      expect(stripe.session(sessionId)).toMatchObject({ mode: 'payment', status: 'open' });
    });

    it('refuses an unknown pack with 422 on pack_id, before asking Stripe', async () => {
      const admin = await world.as('org_admin');
      const before = stripe.checkouts.length;
      expect(expectApiError(await admin.api.POST('/billing/credit-packs/checkout', { body: { pack_id: 'pack_gone' } }), 422, 'VALIDATION_ERROR')).toHaveProperty([
        'body.pack_id',
      ]);
      expect(stripe.checkouts.length).toBe(before);
    });

    it('verifies pending until paid, then fulfilled, crediting the pack once however often it is verified', async () => {
      const admin = await world.as('org_admin');
      const checkout = await admin.api.POST('/billing/credit-packs/checkout', { body: { pack_id: 'pack_small' } });
      const sessionId = stripe.sessionIdFrom(checkout.data!.url);
      const verify = () => admin.api.POST('/billing/credit-packs/verify', { body: { session_id: sessionId } });

      expect((await verify()).data).toEqual({ status: 'pending' }); // still open
      stripe.completeSession(sessionId, { paid: false }); // a delayed payment method
      expect((await verify()).data).toEqual({ status: 'pending' });
      expect((await summaryOf(admin)).credit_balance).toBe(0);

      stripe.completeSession(sessionId);
      expect((await verify()).data).toEqual({ status: 'fulfilled' });
      expect((await verify()).data).toEqual({ status: 'fulfilled' });
      expect((await summaryOf(admin)).credit_balance).toBe(5_000);
    });

    it('credits once when the webhook and verify race for the same session', async () => {
      const admin = await world.as('org_admin');
      const checkout = await admin.api.POST('/billing/credit-packs/checkout', { body: { pack_id: 'pack_large' } });
      const sessionId = stripe.sessionIdFrom(checkout.data!.url);
      stripe.completeSession(sessionId);
      const { payload, signature } = stripe.completedSessionWebhook(sessionId, SECRET);
      const [hook, verified, hookAgain] = await Promise.all([
        webhook(payload, signature),
        admin.api.POST('/billing/credit-packs/verify', { body: { session_id: sessionId } }),
        webhook(payload, signature),
      ]);
      expect(hook.status).toBe(200);
      expect(hookAgain.status).toBe(200);
      expect(verified.data).toEqual({ status: 'fulfilled' });
      expect((await summaryOf(admin)).credit_balance).toBe(50_000);
      const purchases = await app.db!.database.select('select * from ai_credit_transaction where organization_id = $1', [admin.organizationId]);
      expect(purchases).toHaveLength(1);
    });

    it("answers 404 for another organization's session, and for one Stripe does not know", async () => {
      const owner = await world.as('org_admin');
      const sessionId = await buyPack(owner, 'pack_small');
      const thief = await world.as('org_admin');
      expectApiError(await thief.api.POST('/billing/credit-packs/verify', { body: { session_id: sessionId } }), 404, 'RESOURCE_NOT_FOUND');

      const unpaid = await owner.api.POST('/billing/credit-packs/checkout', { body: { pack_id: 'pack_large' } });
      const unpaidId = stripe.sessionIdFrom(unpaid.data!.url);
      expectApiError(await thief.api.POST('/billing/credit-packs/verify', { body: { session_id: unpaidId } }), 404, 'RESOURCE_NOT_FOUND');
      expectApiError(await thief.api.POST('/billing/credit-packs/verify', { body: { session_id: 'cs_test_unknown' } }), 404, 'RESOURCE_NOT_FOUND');
      expect((await summaryOf(thief)).credit_balance).toBe(0);
      expect((await summaryOf(owner)).credit_balance).toBe(5_000);
    });
  });

  describe('usage', () => {
    it('spends the allotment first, then credits, and refuses once both are gone', async () => {
      const admin = await world.as('org_admin');
      const member = await world.as('member', admin.organizationId);
      await world.givePlan(admin.organizationId, { token_limit: 3_000, enable_ai: true });
      await buyPack(admin, 'pack_small');
      // A note long enough that the reports below stay within what a report is believed (input at
      // most 16 tokens per estimated token, plus 256).
      const note = await world.noteOf(member, undefined, 'x'.repeat(1_000));

      await call(openai, member, note, { inputTokens: 2_000, outputTokens: 500 });
      await call(openai, member, note, { inputTokens: 1_000, outputTokens: 500 });
      const rows = await rowsOnceSettled(admin.organizationId, 2);
      expect(rows.map((r) => [r.allotment_tokens, r.credit_tokens, r.overage_tokens])).toEqual([
        [2_500, 0, 0],
        [500, 1_000, 0],
      ]);
      expect(await summaryOf(member)).toMatchObject({ token_limit: 3_000, allotment_used: 3_000, credit_balance: 4_000, overage_tokens: 0, my_tokens: 4_000 });

      // The rest of the credits go, then the call that cannot get its 200 output tokens is refused.
      await call(openai, member, note, { inputTokens: 3_000, outputTokens: 950 });
      await rowsOnceSettled(admin.organizationId, 3);
      expect((await summaryOf(member)).credit_balance).toBe(50);
      expect(expectApiError(await improve(member, note), 403, 'QUOTA_EXCEEDED')).toEqual({ feature_key: 'token_limit', limit: 3_000 });
    });

    it('never charges the allotment past token_limit, even when the provider reports more than was reserved', async () => {
      const member = await world.as('member');
      await world.givePlan(member.organizationId, { token_limit: 5_000, enable_ai: true });
      // Long enough that 9,000 input tokens is within what a report is believed, yet far more than reserved.
      const note = await world.noteOf(member, undefined, 'x'.repeat(4_000));
      await call(openai, member, note, { inputTokens: 9_000, outputTokens: 1_000 });
      const [row] = await rowsOnceSettled(member.organizationId, 1);
      // The row keeps what the provider reported; what capacity cannot cover is charged to nobody.
      expect(row).toMatchObject({ input_tokens: 9_000, output_tokens: 1_000, allotment_tokens: 5_000, credit_tokens: 0, overage_tokens: 0 });
      expect(await summaryOf(member)).toMatchObject({ token_limit: 5_000, allotment_used: 5_000, overage_tokens: 0 });
      expectApiError(await improve(member, note), 403, 'QUOTA_EXCEEDED');
    });

    it('holds the hard cap under concurrent calls: exactly the calls that fit are let through', async () => {
      const probe = await world.as('member');
      await world.givePlan(probe.organizationId, { token_limit: -1, enable_ai: true });
      await call(openai, probe, await world.noteOf(probe), { inputTokens: 1, outputTokens: 1 });
      const estimate = inputEstimateOf(openai.requests.at(-1)!); // the same for every note with the default title and content

      const member = await world.as('member');
      const full = estimate + 2_000; // what one call holds while capacity allows the largest output
      await world.givePlan(member.organizationId, { token_limit: 5 * full, enable_ai: true });
      const note = await world.noteOf(member);
      // Every call waits before its first byte, so all reservations overlap; each uses all it holds.
      openai.setDefaultScript({ firstByteDelayMs: 300, deltas: ['x'], usage: { inputTokens: estimate, outputTokens: 2_000 } });
      try {
        const results = await Promise.all(Array.from({ length: 12 }, () => improve(member, note)));
        await Promise.all(results.map((r) => (r.response.ok ? readChunks(r.response.body!) : undefined)));
        expect(results.map((r) => r.response.status).sort()).toEqual([...Array(5).fill(200), ...Array(7).fill(403)]);
        for (const refused of results.filter((r) => !r.response.ok)) expect(refused.error).toMatchObject({ code: 'QUOTA_EXCEEDED' });
        const rows = await rowsOnceSettled(member.organizationId, 5);
        expect(rows.reduce((sum, r) => sum + r.allotment_tokens, 0)).toBe(5 * full);
        expect((await summaryOf(member)).allotment_used).toBe(5 * full);
      } finally {
        openai.setDefaultScript({});
      }
    });

    it('shows a member their own calls, an org_admin everyone’s, paged with Link; top users to org_admins only', async () => {
      const admin = await world.as('org_admin');
      const alice = await world.as('member', admin.organizationId);
      const bob = await world.as('member', admin.organizationId);
      await world.givePlan(admin.organizationId, { token_limit: -1, enable_ai: true });
      const aliceNote = await world.noteOf(alice);
      const bobNote = await world.noteOf(bob);
      await call(openai, alice, aliceNote, { inputTokens: 100, outputTokens: 10 });
      await call(openai, bob, bobNote, { inputTokens: 400, outputTokens: 40 });
      await call(openai, alice, aliceNote, { inputTokens: 200, outputTokens: 20 });
      const rows = await rowsOnceSettled(admin.organizationId, 3);
      const newestFirst = rows.map((r) => r.id).reverse();

      const aliceHistory = await alice.api.GET('/usage/history');
      expect(aliceHistory.data!.map((r) => r.id)).toEqual([newestFirst[0], newestFirst[2]]);
      expect(aliceHistory.data![0]).toMatchObject({ organization_id: admin.organizationId, user_id: alice.userId, feature: 'improve', input_tokens: 200, output_tokens: 20, allotment_tokens: 220 });
      expect((await bob.api.GET('/usage/history')).data!.map((r) => r.user_id)).toEqual([bob.userId]);

      const firstPage = await admin.api.GET('/usage/history', { params: { query: { limit: 2 } } });
      expect(firstPage.data!.map((r) => r.id)).toEqual(newestFirst.slice(0, 2));
      const link = firstPage.response.headers.get('link');
      expect(link).toMatch(/^<[^>]+>; rel="next"$/);
      const next = new URL(/^<([^>]+)>/.exec(link!)![1]!);
      expect(next.pathname).toBe('/usage/history');
      const secondPage = await admin.api.GET('/usage/history', { params: { query: { limit: 2, cursor: next.searchParams.get('cursor')! } } });
      expect(secondPage.data!.map((r) => r.id)).toEqual(newestFirst.slice(2));
      expect(secondPage.response.headers.get('link')).toBeNull();

      expect(await summaryOf(alice)).toMatchObject({ token_limit: -1, allotment_used: 770, my_tokens: 330 });
      expect((await summaryOf(admin)).my_tokens).toBe(0);

      const top = await admin.api.GET('/usage/top-users');
      expect(top.data).toEqual([
        { user_id: bob.userId, email: expect.stringContaining('@example.test'), tokens: 440 },
        { user_id: alice.userId, email: expect.stringContaining('@example.test'), tokens: 330 },
      ]);
      expectApiError(await alice.api.GET('/usage/top-users'), 403, 'ACCESS_DENIED');
      const readonly = await world.as('readonly', admin.organizationId);
      expectApiError(await readonly.api.GET('/usage/summary'), 403, 'ACCESS_DENIED');
      expectApiError(await readonly.api.GET('/usage/history'), 403, 'ACCESS_DENIED');

      // Another organization sees none of it.
      const stranger = await world.as('org_admin');
      expect((await stranger.api.GET('/usage/history')).data).toEqual([]);
      expect((await stranger.api.GET('/usage/top-users')).data).toEqual([]);
    });
  });

  describe('settings', () => {
    it('lets an org_admin read and change the organization’s switches, refusing unknown keys and wrong types', async () => {
      const admin = await world.as('org_admin');
      const member = await world.as('member', admin.organizationId);
      expect((await admin.api.GET('/settings/organization')).data).toEqual({ overage_enabled: false, require_mfa: false });
      expectApiError(await member.api.GET('/settings/organization'), 403, 'ACCESS_DENIED');
      expectApiError(await member.api.PUT('/settings/organization', { body: { overage_enabled: true } }), 403, 'ACCESS_DENIED');

      // Overage needs a live subscription to be billed on.
      expect(expectApiError(await admin.api.PUT('/settings/organization', { body: { overage_enabled: true } }), 409, 'CONFLICT')).toEqual({ reason: 'no_live_subscription' });
      expect((await admin.api.GET('/settings/organization')).data).toEqual({ overage_enabled: false, require_mfa: false });
      await world.givePlan(admin.organizationId, { token_limit: 0, enable_ai: true });
      const changed = await admin.api.PUT('/settings/organization', { body: { overage_enabled: true } });
      expect(changed.data).toEqual({ overage_enabled: true, require_mfa: false });
      expect((await admin.api.GET('/settings/organization')).data).toEqual({ overage_enabled: true, require_mfa: false });

      expect(expectApiError(await admin.api.PUT('/settings/organization', { body: { overage_enabled: true, ai_overage_enabled: true } as never }), 422, 'VALIDATION_ERROR')).toHaveProperty([
        'body.ai_overage_enabled',
      ]);
      expect(expectApiError(await admin.api.PUT('/settings/organization', { body: { overage_enabled: 'yes' } as never }), 422, 'VALIDATION_ERROR')).toHaveProperty([
        'body.overage_enabled',
      ]);
      expect((await admin.api.GET('/settings/organization')).data).toEqual({ overage_enabled: true, require_mfa: false });
    });

    it('lets only a sys_admin read and change the system switch, refusing unknown keys and wrong types', async () => {
      const admin = await world.as('org_admin');
      expectApiError(await admin.api.GET('/settings/system'), 403, 'ACCESS_DENIED');
      expectApiError(await admin.api.PUT('/settings/system', { body: { ai_overage_enabled: true } }), 403, 'ACCESS_DENIED');
      expect((await sysAdmin.api.GET('/settings/system')).data).toEqual({ ai_overage_enabled: false });
      expect(expectApiError(await sysAdmin.api.PUT('/settings/system', { body: { overage_enabled: true } as never }), 422, 'VALIDATION_ERROR')).toHaveProperty([
        'body.overage_enabled',
      ]);
      expect(expectApiError(await sysAdmin.api.PUT('/settings/system', { body: { ai_overage_enabled: 1 } as never }), 422, 'VALIDATION_ERROR')).toHaveProperty([
        'body.ai_overage_enabled',
      ]);
      expect((await sysAdmin.api.PUT('/settings/system', { body: { ai_overage_enabled: true } })).data).toEqual({ ai_overage_enabled: true });
      expect((await sysAdmin.api.GET('/settings/system')).data).toEqual({ ai_overage_enabled: true });
      expect((await sysAdmin.api.PUT('/settings/system', { body: {} })).data).toEqual({ ai_overage_enabled: true });
      expect((await sysAdmin.api.PUT('/settings/system', { body: { ai_overage_enabled: false } })).data).toEqual({ ai_overage_enabled: false });
    });
  });

  describe('overage', () => {
    const setSystem = async (on: boolean) => {
      expect((await sysAdmin.api.PUT('/settings/system', { body: { ai_overage_enabled: on } })).data).toEqual({ ai_overage_enabled: on });
    };

    /** An organization whose capacity cannot hold a call (an AI plan with 100 tokens or none, no credits). */
    async function orgWithoutCapacity(overageEnabled: boolean, tokenLimit = 0) {
      const admin = await world.as('org_admin');
      await world.givePlan(admin.organizationId, { token_limit: tokenLimit, enable_ai: true });
      expect((await admin.api.PUT('/settings/organization', { body: { overage_enabled: overageEnabled } })).response.status).toBe(200);
      return { admin, note: await world.noteOf(admin) };
    }

    it.each([
      ['the organization’s switch is off', false, true],
      ['the system switch is off', true, false],
    ])('refuses a call beyond capacity when %s', async (_label, organizationSwitch, systemSwitch) => {
      await setSystem(systemSwitch);
      const { admin, note } = await orgWithoutCapacity(organizationSwitch);
      const sent = openai.requests.length;
      expect(expectApiError(await improve(admin, note), 403, 'QUOTA_EXCEEDED')).toEqual({ feature_key: 'token_limit', limit: 0 });
      expect(openai.requests.length).toBe(sent);
      await setSystem(false);
    });

    it('refuses overage on Free with the system switch on, serves nothing past the cap, and turns overage off when the subscription ends', async () => {
      await setSystem(true);
      try {
        const admin = await world.as('org_admin');
        // Free with AI (the default plan), no subscription: the switch is refused, calls past the cap too.
        await app.db!.database.run(`update plan set features = features || '{"enable_ai": true}'::jsonb where is_default`, []);
        expectApiError(await admin.api.PUT('/settings/organization', { body: { overage_enabled: true } }), 409, 'CONFLICT');
        const note = await world.noteOf(admin);
        const sent = openai.requests.length;
        expectApiError(await improve(admin, note), 403, 'QUOTA_EXCEEDED');
        expect(openai.requests.length).toBe(sent);

        // Subscribed: the switch goes on. The subscription ends: the webhook turns it off, and calls past the cap are refused again.
        expect((await admin.api.POST('/subscription/portal')).response.status).toBe(200);
        await world.givePlan(admin.organizationId, { token_limit: 0, enable_ai: true });
        expect((await admin.api.PUT('/settings/organization', { body: { overage_enabled: true } })).response.status).toBe(200);
        const [row] = await app.db!.database.select<{ stripe_customer_id: string }>('select stripe_customer_id from subscription where organization_id = $1', [admin.organizationId]);
        const ended = subscriptionEvent(`evt_overage_end_${admin.organizationId}`, 'customer.subscription.deleted', {
          customer: row!.stripe_customer_id,
          status: 'canceled',
          created: Math.floor(Date.now() / 1000) + 60,
        });
        const { payload, signature } = signed(ended, SECRET);
        expect((await webhook(payload, signature)).status).toBe(200);
        expect((await admin.api.GET('/settings/organization')).data).toEqual({ overage_enabled: false, require_mfa: false });
        expectApiError(await improve(admin, note), 403, 'QUOTA_EXCEEDED');
        expect(openai.requests.length).toBe(sent);
      } finally {
        await app.db!.database.run(`update plan set features = features - 'enable_ai' where is_default`, []);
        await setSystem(false);
      }
    });

    it('with both switches on, lets the call through as overage and reports it to Stripe as a meter event keyed by the usage id', async () => {
      await setSystem(true);
      try {
        // 100 tokens cannot hold a call (its input and 200 output tokens): the allotment takes what it can, overage the rest.
        const { admin, note } = await orgWithoutCapacity(true, 100);
        await call(openai, admin, note, { inputTokens: 700, outputTokens: 400 });
        expect(openai.requests.at(-1)!.max_output_tokens).toBe(2000);
        const [row] = await rowsOnceSettled(admin.organizationId, 1);
        expect(row).toMatchObject({ allotment_tokens: 100, credit_tokens: 0, overage_tokens: 1_000 });
        expect(await summaryOf(admin)).toMatchObject({ allotment_used: 100, overage_tokens: 1_000, credit_balance: 0 });

        // The report-ai-overage job runs every 5 s in process.
        const event = await eventually(() => stripe.meterEvents.find((e) => e.identifier === String(row!.id)), 20_000, 250);
        expect(event).toMatchObject({ eventName: METER, value: '1000', customerId: expect.stringMatching(/^cus_/) });
        const [subscription] = await app.db!.database.select<{ stripe_customer_id: string }>('select stripe_customer_id from subscription where organization_id = $1', [
          admin.organizationId,
        ]);
        expect(event.customerId).toBe(subscription!.stripe_customer_id);
        expect(stripe.meterEvents.filter((e) => e.identifier === String(row!.id))).toHaveLength(1);
        expect(stripe.protocolErrors).toEqual([]);
      } finally {
        await setSystem(false);
      }
    });
  });
});

describe.skipIf(!postgres)('credit packs without Stripe', () => {
  let app: TestApp;
  let world: CopilotWorld;

  beforeAll(async () => {
    app = await startTestApp();
    world = copilotWorld(app);
  });
  afterAll(() => app?.close());

  it('still lists the packs, and answers checkout and verify with 503', async () => {
    const admin = await world.as('org_admin');
    const list = await admin.api.GET('/billing/credit-packs');
    expect(list.response.status).toBe(200);
    expect(list.data!.map((p) => p.id)).toEqual(['pack_5m', 'pack_10m', 'pack_25m']);
    const checkout = await admin.api.POST('/billing/credit-packs/checkout', { body: { pack_id: 'pack_5m' } });
    expectApiError(checkout, 503, 'SERVICE_UNAVAILABLE');
    expect(checkout.response.headers.get('retry-after')).toBe('3600');
    expectApiError(await admin.api.POST('/billing/credit-packs/verify', { body: { session_id: 'cs_test_x' } }), 503, 'SERVICE_UNAVAILABLE');
    expect(await (await app.request('/config')).json()).toMatchObject({ ai: false, billing: false });
  });
});
