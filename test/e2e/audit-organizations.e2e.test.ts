import { beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../app/client/index';
import type { BillingEvent } from '../../core/billing/billing-provider.port';
import { signed, stripeEventFor } from '../builders/stripe-events';
import { startStripeFake, type StripeFake } from '../fakes/stripe-fake';
import { apiSuite } from '../support/api-suite';
import { clientBrowser } from '../support/client-browser';
import { tokenFromEmail } from '../support/mailbox';
import { requirePostgres } from '../support/postgres';

/**
 * The organization's own changes in its audit log, end to end through the generated client:
 * invitations, a join, role and status changes, a removal, settings, a sys_admin's suspension, and
 * the events Stripe's webhooks make (subscriptions, a credit pack), each read back with
 * `GET /audit-events` (or the sys_admin's view) as the adopter would.
 */
const postgres = await requirePostgres();

const STRIPE_KEY = 'sk_test_audit_e2e';
const WEBHOOK_SECRET = 'whsec_audit_e2e';
const PASSWORD = 'correct horse battery';
const USER_AGENT = 'AuditOrgTest/2.0';

interface Event {
  action: string;
  actor: { type: string; id: number | null; email?: string | null };
  target: { type: string; id: string } | null;
  ip: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

describe.skipIf(!postgres)('organization and billing changes in the audit log over HTTP', () => {
  let stripe: StripeFake;
  beforeAll(async () => {
    stripe = await startStripeFake({ apiKey: STRIPE_KEY });
  });
  afterAll(() => stripe?.close());
  const suite = apiSuite(() => ({ APP_STRIPE_API_KEY: STRIPE_KEY, APP_STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, APP_STRIPE_API_BASE_URL: stripe.url }));

  /** The organization's events, oldest first, of the given actions. */
  async function eventsOf(api: ApiClient, ...actions: string[]): Promise<Event[]> {
    const result = await api.GET('/audit-events', { params: { query: { limit: 100 } } });
    expect(result.response.status).toBe(200);
    return (result.data as Event[]).filter((event) => actions.includes(event.action)).reverse();
  }

  it('records invitations, the join, role and status changes and the removal, each with who and what', async () => {
    const admin = await suite.as('org_admin');
    const invited = await admin.api.POST('/invitations', { body: { email: 'newcomer@example.com', role: 'member' } });
    expect(invited.response.status).toBe(201);
    const revokedOne = await admin.api.POST('/invitations', { body: { email: 'changed-mind@example.com', role: 'readonly' } });
    expect((await admin.api.DELETE('/invitations/{invitation_id}', { params: { path: { invitation_id: revokedOne.data!.id } } })).response.status).toBe(204);

    const token = await tokenFromEmail(suite.app, 'newcomer@example.com', '/invite/accept');
    const browser = clientBrowser(suite.app, { subnet: '198.19', userAgent: USER_AGENT });
    const accepted = await browser.api.POST('/invitations/accept', { body: { token, password: PASSWORD } });
    expect(accepted.response.status).toBe(201);
    const newcomer = accepted.data!.user_id;
    const path = { params: { path: { user_id: newcomer } } };
    expect((await admin.api.PUT('/members/{user_id}', { ...path, body: { role: 'readonly' } })).response.status).toBe(200);
    expect((await admin.api.POST('/members/{user_id}/suspend', path)).response.status).toBe(200);
    expect((await admin.api.POST('/members/{user_id}/activate', path)).response.status).toBe(200);
    expect((await admin.api.DELETE('/members/{user_id}', path)).response.status).toBe(204);

    const events = await eventsOf(
      admin.api,
      'invitation.created',
      'invitation.revoked',
      'member.joined',
      'member.role_changed',
      'member.suspended',
      'member.activated',
      'member.removed',
    );
    const byAdmin = { type: 'user', id: admin.userId };
    expect(events).toMatchObject([
      { action: 'invitation.created', actor: byAdmin, target: { type: 'invitation', id: String(invited.data!.id) }, details: { email: 'newcomer@example.com', role: 'member' } },
      { action: 'invitation.created', actor: byAdmin, details: { email: 'changed-mind@example.com', role: 'readonly' } },
      { action: 'invitation.revoked', actor: byAdmin, target: { type: 'invitation', id: String(revokedOne.data!.id) } },
      {
        action: 'member.joined',
        actor: { type: 'user', id: newcomer, email: 'newcomer@example.com' },
        user_agent: USER_AGENT,
        ip: expect.stringMatching(/^198\.19\./),
        details: { role: 'member', via: 'invitation_link', invited_by: admin.userId },
      },
      { action: 'member.role_changed', actor: byAdmin, target: { type: 'user', id: String(newcomer) }, details: { from: 'member', to: 'readonly' } },
      { action: 'member.suspended', details: { from: 'active', to: 'suspended' } },
      { action: 'member.activated', details: { from: 'suspended', to: 'active' } },
      { action: 'member.removed', target: { type: 'user', id: String(newcomer) }, details: { email: 'newcomer@example.com', role: 'readonly' } },
    ]);
    const log = JSON.stringify(events);
    expect(log).not.toContain(token);
    expect(log).not.toContain(PASSWORD);
  });

  it('records a settings change with the settings that changed, and a sys_admin’s suspension in the organization’s own log', async () => {
    const admin = await suite.as('org_admin');
    expect((await admin.api.PUT('/settings/organization', { body: { require_mfa: true, overage_enabled: false } })).response.status).toBe(200);

    const root = await suite.as('sys_admin');
    const organization = { params: { path: { organization_id: admin.organizationId } } };
    expect((await root.api.POST('/organizations/{organization_id}/suspend', organization)).response.status).toBe(200);
    expect((await root.api.POST('/organizations/{organization_id}/activate', organization)).response.status).toBe(200);

    // Read through the sys_admin's view: the admin, without a second factor, is now held to their account.
    const viewed = await root.api.GET('/organizations/{organization_id}/audit-events', { params: { path: { organization_id: admin.organizationId }, query: { limit: 100 } } });
    expect(viewed.response.status).toBe(200);
    expect((viewed.data as Event[]).filter((event) => event.action.startsWith('organization.')).reverse()).toMatchObject([
      {
        action: 'organization.settings_changed',
        actor: { type: 'user', id: admin.userId },
        target: { type: 'organization', id: String(admin.organizationId) },
        details: { from: { require_mfa: false }, to: { require_mfa: true } },
      },
      { action: 'organization.suspended', actor: { type: 'user', id: root.userId }, details: { from: 'active', to: 'suspended' } },
      { action: 'organization.activated', actor: { type: 'user', id: root.userId }, details: { from: 'suspended', to: 'active' } },
    ]);
    // Nothing of it in the sys_admin's own organization.
    expect(await eventsOf(root.api, 'organization.suspended', 'organization.activated')).toEqual([]);
  });

  it('records what Stripe’s webhooks change as the system: the subscription’s start, change and end, and a bought credit pack', async () => {
    const admin = await suite.as('org_admin');
    const organizationId = admin.organizationId;
    const customerId = `cus_audit_${organizationId}`;
    await suite.app.db!.database.run('insert into subscription (organization_id, stripe_customer_id, cancel_at_period_end, updated_at) values ($1, $2, false, now())', [
      organizationId,
      customerId,
    ]);
    const deliver = async (event: BillingEvent) => {
      const { payload, signature } = signed(stripeEventFor(event), WEBHOOK_SECRET);
      const res = await suite.app.request('/webhooks/stripe', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload });
      expect(res.status).toBe(200);
    };
    const base = Date.parse('2026-11-20T10:00:00.000Z');
    const subscription = (id: string, seconds: number, overrides: Partial<Extract<BillingEvent, { kind: 'subscription-changed' }>> = {}): BillingEvent => ({
      id,
      kind: 'subscription-changed',
      occurredAt: new Date(base + seconds * 1000),
      organizationId,
      customerId,
      subscriptionId: `sub_audit_${organizationId}`,
      status: 'active',
      priceId: 'price_basic',
      productId: 'prod_basic',
      currentPeriodStart: new Date(base),
      currentPeriodEnd: new Date(base + 30 * 86_400_000),
      cancelAtPeriodEnd: false,
      ...overrides,
    });
    await deliver(subscription(`evt_a_${organizationId}`, 0));
    await deliver(subscription(`evt_b_${organizationId}`, 10, { priceId: 'price_pro', productId: 'prod_pro' }));
    await deliver(subscription(`evt_c_${organizationId}`, 20, { priceId: 'price_pro', productId: 'prod_pro', status: 'canceled' }));
    await deliver({
      id: `evt_pack_${organizationId}`,
      kind: 'payment-completed',
      occurredAt: new Date(base + 30_000),
      organizationId,
      customerId,
      checkoutSessionId: `cs_audit_${organizationId}`,
      packId: 'pack_5m',
      tokens: 5_000_000,
      paid: true,
    });

    const system = { type: 'system', id: null };
    expect(await eventsOf(admin.api, 'subscription.started', 'subscription.changed', 'subscription.ended', 'credit_pack.bought')).toMatchObject([
      { action: 'subscription.started', actor: system, ip: null, target: { type: 'subscription', id: `sub_audit_${organizationId}` }, details: { to: { status: 'active', product_id: 'prod_basic' } } },
      { action: 'subscription.changed', actor: system, details: { from: { product_id: 'prod_basic' }, to: { product_id: 'prod_pro' } } },
      { action: 'subscription.ended', actor: system, details: { from: { status: 'active' }, to: { status: 'canceled' } } },
      { action: 'credit_pack.bought', actor: system, target: { type: 'credit_pack', id: 'pack_5m' }, details: { pack: 'pack_5m', credits: 5_000_000 } },
    ]);
  });
});
