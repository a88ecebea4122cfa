import { PlanProducts } from '../plans/plan-products';
import { describe, expect, it } from 'vitest';
import { aiHarness } from '../../test/builders/ai';
import { FakeBillingProvider } from '../../test/fakes/fake-billing-provider';
import { recordingLogger } from '../../test/support/recording-logger';
import { DEFAULT_CREDIT_PACKS } from './credit-pack';
import type { BillingDeps } from './billing-deps';
import { FulfilCreditPack } from './fulfil-credit-pack';
import { HandleBillingWebhook } from './handle-billing-webhook.use-case';
import { StartCreditPackCheckout } from './start-credit-pack-checkout.use-case';
import { VerifyCreditPackCheckout } from './verify-credit-pack-checkout.use-case';
import { NO_ORIGIN, SYSTEM_ACTOR } from '../audit/audit-actor';

const PACK = DEFAULT_CREDIT_PACKS[0]!;
const SYSTEM = { actor: SYSTEM_ACTOR, origin: NO_ORIGIN };

async function setup() {
  const h = aiHarness();
  const provider = new FakeBillingProvider();
  const logger = recordingLogger();
  const base = {
    provider,
    subscriptions: h.subscriptions,
    products: new PlanProducts(h.plans),
    organizations: h.ports.organizations,
    packs: DEFAULT_CREDIT_PACKS,
    ledger: h.ledger,
    tokenHasher: h.ports.tokenHasher,
    unitOfWork: h.store.unitOfWork,
    audit: h.ports.audit,
    clock: h.clock,
    logger,
    settings: { baseWebUrl: 'https://app.example.com' },
  };
  const fulfilment = new FulfilCreditPack(base);
  const deps: BillingDeps = { ...base, creditPacks: fulfilment };
  const admin = await h.aCaller('org_admin');
  const checkout = new StartCreditPackCheckout(deps);
  const verify = new VerifyCreditPackCheckout(deps);
  const webhook = new HandleBillingWebhook(deps);
  /** An org_admin checks out a pack; returns the provider's session id. */
  const aSession = async (caller = admin, packId = PACK.id) => provider.sessionIdFrom((await checkout.execute(caller, { packId })).url);
  const deliverPayment = (sessionId: string) => {
    const signed = FakeBillingProvider.signed(provider.paymentCompletedEvent(sessionId));
    return webhook.execute({ rawBody: signed.rawBody, signature: signed.signature });
  };
  return { h, provider, logger, fulfilment, admin, checkout, verify, aSession, deliverPayment };
}

describe('StartCreditPackCheckout', () => {
  it('checks out the pack priced inline, carrying its id and tokens, as the organization\'s customer', async () => {
    const { provider, admin, checkout } = await setup();
    const { url } = await checkout.execute(admin, { packId: PACK.id });
    expect(provider.paymentCheckouts).toEqual([
      {
        organizationId: admin.organizationId,
        customerId: 'cus_fake_1',
        item: { name: PACK.name, amountCents: PACK.amountCents, currency: PACK.currency },
        packId: PACK.id,
        tokens: PACK.tokens,
        successUrl: 'https://app.example.com/billing?credit_pack=success&session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: 'https://app.example.com/billing?credit_pack=cancelled',
        idempotencyKey: expect.stringMatching(/^credit-pack-[0-9a-f]{64}$/),
      },
    ]);
    expect(provider.sessionIdFrom(url)).toEqual(expect.any(String));
  });

  it('answers VALIDATION_ERROR on packId for a pack not on sale, without calling the provider', async () => {
    const { provider, admin, checkout } = await setup();
    await expect(checkout.execute(admin, { packId: 'pack_free_lunch' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { packId: expect.any(String) } });
    expect(provider.customers).toEqual([]);
    expect(provider.paymentCheckouts).toEqual([]);
  });

  it.each(['member', 'readonly'] as const)('refuses a %s', async (role) => {
    const { h, provider, checkout } = await setup();
    await expect(checkout.execute(await h.aCaller(role), { packId: PACK.id })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(provider.paymentCheckouts).toEqual([]);
  });
});

describe('VerifyCreditPackCheckout', () => {
  it('answers pending until the session is paid, then credits the pack once and answers fulfilled', async () => {
    const { h, provider, admin, verify, aSession } = await setup();
    const sessionId = await aSession();
    expect(await verify.execute(admin, { sessionId })).toBe('pending');
    provider.completeSession(sessionId, { paid: false });
    expect(await verify.execute(admin, { sessionId })).toBe('pending');
    expect(await h.balance(admin.organizationId)).toBe(0);
    provider.completeSession(sessionId);
    expect(await verify.execute(admin, { sessionId })).toBe('fulfilled');
    expect(await verify.execute(admin, { sessionId })).toBe('fulfilled');
    expect(await h.balance(admin.organizationId)).toBe(PACK.tokens);
    expect(await h.ledger.findPurchase(sessionId)).toEqual({ organizationId: admin.organizationId });
  });

  it("answers RESOURCE_NOT_FOUND for another organization's session, paid and credited or not", async () => {
    const { h, provider, admin, verify, aSession } = await setup();
    const other = await h.aCaller('org_admin');
    const sessionId = await aSession();
    await expect(verify.execute(other, { sessionId })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    provider.completeSession(sessionId);
    await expect(verify.execute(other, { sessionId })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect(await h.balance(other.organizationId)).toBe(0);
    expect(await verify.execute(admin, { sessionId })).toBe('fulfilled');
    await expect(verify.execute(other, { sessionId })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect(await h.balance(other.organizationId)).toBe(0);
  });

  it('answers RESOURCE_NOT_FOUND for a session the provider does not know', async () => {
    const { admin, verify } = await setup();
    await expect(verify.execute(admin, { sessionId: 'cs_made_up' })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('refuses a member', async () => {
    const { h, admin, verify, aSession } = await setup();
    const sessionId = await aSession();
    const member = await h.aCaller('member', admin.organizationId);
    await expect(verify.execute(member, { sessionId })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });
});

describe('credit pack fulfilment', () => {
  it('credits a pack once when the webhook and the verify call both fulfil it, in either order', async () => {
    const { h, provider, admin, verify, aSession, deliverPayment } = await setup();
    const first = await aSession();
    provider.completeSession(first);
    expect(await deliverPayment(first)).toBe('applied');
    expect(await verify.execute(admin, { sessionId: first })).toBe('fulfilled');
    expect(await h.balance(admin.organizationId)).toBe(PACK.tokens);

    h.clock.advance(120_000);
    const second = await aSession();
    expect(second).not.toBe(first);
    provider.completeSession(second);
    expect(await verify.execute(admin, { sessionId: second })).toBe('fulfilled');
    expect(await deliverPayment(second)).toBe('applied');
    expect(await h.balance(admin.organizationId)).toBe(2 * PACK.tokens);
  });

  it('credits a pack once when the webhook and the verify call fulfil it at the same time', async () => {
    const { h, provider, admin, verify, aSession, deliverPayment } = await setup();
    const sessionId = await aSession();
    provider.completeSession(sessionId);
    await Promise.all([deliverPayment(sessionId), verify.execute(admin, { sessionId }), verify.execute(admin, { sessionId })]);
    expect(await h.balance(admin.organizationId)).toBe(PACK.tokens);
    expect([...h.tables.creditTransactions.values()].filter((row) => row.kind === 'purchase')).toHaveLength(1);
  });

  it('credits the tokens the pack was sold with, not its current size', async () => {
    const { h, admin, fulfilment } = await setup();
    await fulfilment.fulfil({ organizationId: admin.organizationId, checkoutSessionId: 'cs_old', packId: PACK.id, tokens: 123, paidAt: h.clock.now(), by: SYSTEM });
    expect(await h.balance(admin.organizationId)).toBe(123);
  });

  it("falls back to the pack's current size for a session without tokens, and credits nothing (logging an error) for an unknown pack", async () => {
    const { h, logger, admin, fulfilment } = await setup();
    await fulfilment.fulfil({ organizationId: admin.organizationId, checkoutSessionId: 'cs_a', packId: PACK.id, tokens: null, paidAt: h.clock.now(), by: SYSTEM });
    expect(await h.balance(admin.organizationId)).toBe(PACK.tokens);
    await fulfilment.fulfil({ organizationId: admin.organizationId, checkoutSessionId: 'cs_b', packId: 'pack_gone', tokens: null, paidAt: h.clock.now(), by: SYSTEM });
    expect(await h.balance(admin.organizationId)).toBe(PACK.tokens);
    expect(logger.lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ checkout_session_id: 'cs_b' }) }));
  });
});

describe('credit_pack.bought', () => {
  const bought = async (h: Awaited<ReturnType<typeof setup>>['h'], organizationId: number) =>
    (await h.auditLog.recorded(organizationId)).filter((event) => event.action === 'credit_pack.bought');

  it('the verify call that credits records it, acted by the admin from their request: the pack and its credits, nothing of the payment', async () => {
    const { h, provider, admin, verify, aSession, deliverPayment } = await setup();
    const sessionId = await aSession();
    provider.completeSession(sessionId);
    await verify.execute({ ...admin, origin: { ip: '192.0.2.8', userAgent: 'Edge/140' } }, { sessionId });
    await deliverPayment(sessionId);
    await verify.execute(admin, { sessionId });

    expect(await bought(h, admin.organizationId)).toMatchObject([
      {
        actor: { type: 'user', id: admin.userId },
        target: { type: 'credit_pack', id: PACK.id },
        origin: { ip: '192.0.2.8', userAgent: 'Edge/140' },
        details: { pack: PACK.id, credits: PACK.tokens },
      },
    ]);
  });

  it('the webhook that credits records it as the system, with no origin', async () => {
    const { h, provider, admin, verify, aSession, deliverPayment } = await setup();
    const sessionId = await aSession();
    provider.completeSession(sessionId);
    await deliverPayment(sessionId);
    await verify.execute(admin, { sessionId });

    expect(await bought(h, admin.organizationId)).toMatchObject([
      { actor: { type: 'system', id: null }, origin: { ip: null, userAgent: null }, details: { pack: PACK.id, credits: PACK.tokens } },
    ]);
  });

  it('a pack whose event cannot be written is not credited, and the next try credits it once', async () => {
    const { h, provider, admin, verify, aSession } = await setup();
    const sessionId = await aSession();
    provider.completeSession(sessionId);
    h.auditLog.failNextRecord();
    await expect(verify.execute(admin, { sessionId })).rejects.toThrow('audit insert failed');
    expect(await h.balance(admin.organizationId)).toBe(0);
    expect(await verify.execute(admin, { sessionId })).toBe('fulfilled');
    expect(await h.balance(admin.organizationId)).toBe(PACK.tokens);
    expect(await bought(h, admin.organizationId)).toHaveLength(1);
  });
});
