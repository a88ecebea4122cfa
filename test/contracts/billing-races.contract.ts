import { describe, expect, it } from 'vitest';
import type { Caller } from '../../core/access/caller';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { BillingEvent, SubscriptionChangedEvent } from '../../core/billing/billing-provider.port';
import { HandleBillingWebhook } from '../../core/billing/handle-billing-webhook.use-case';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import { UpdateOrganizationSettings } from '../../core/organizations/update-organization-settings.use-case';
import type { Clock } from '../../core/shared/clock.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import type { AuditLog } from '../../core/audit/audit-log.port';
import type { AuditEventRepository } from '../../core/audit/audit-event-repository.port';
import { FakeBillingProvider } from '../fakes/fake-billing-provider';
import { recordingLogger } from '../support/recording-logger';

export interface BillingRacesHarness {
  subscriptions: SubscriptionRepository;
  organizations: OrganizationRepository;
  unitOfWork: UnitOfWork;
  clock: Clock;
  /** The audit log on the same store, and its reader. */
  audit: AuditLog;
  events: AuditEventRepository;
  /** A new organization with an org_admin; returns both ids. */
  newOrganization(): Promise<{ organizationId: number; adminId: number }>;
}

const T0 = Date.parse('2026-11-21T10:00:00.000Z');

const changed = (organizationId: number, customerId: string, overrides: Partial<SubscriptionChangedEvent>): SubscriptionChangedEvent => ({
  id: `evt_${Math.random().toString(36).slice(2)}`,
  kind: 'subscription-changed',
  occurredAt: new Date(T0),
  organizationId,
  customerId,
  subscriptionId: `sub_${organizationId}_1`,
  status: 'active',
  priceId: 'price_pro',
  productId: 'prod_pro',
  currentPeriodStart: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  ...overrides,
});

/**
 * Billing writes racing each other, the same on every adapter family: in memory the transactions
 * run one after another in the order they start, so both orders are played; on PostgreSQL they
 * truly overlap, and each race is run several times.
 */
export function describeBillingRaces(name: string, setup: () => Promise<BillingRacesHarness>, options: { rounds: number }): void {
  describe(`billing races: ${name}`, () => {
    async function world() {
      const h = await setup();
      const logger = recordingLogger();
      const webhook = new HandleBillingWebhook({ ...h, provider: new FakeBillingProvider(), creditPacks: null, logger });
      const settings = new UpdateOrganizationSettings({ ...h, meteredBilling: h.subscriptions, logger });
      const deliver = (event: BillingEvent) => webhook.execute(FakeBillingProvider.signed(event));
      const subscribed = async () => {
        const { organizationId, adminId } = await h.newOrganization();
        const customerId = `cus_${organizationId}`;
        await h.subscriptions.saveCustomer(organizationId, customerId, h.clock.now());
        await deliver(changed(organizationId, customerId, {}));
        const caller: Caller = { userId: adminId, organizationId, role: 'org_admin', sessionId: 0, mfaSatisfied: true, kind: 'user' as const };
        return { organizationId, customerId, caller };
      };
      /** The organization's audit events, oldest first: what each race recorded. */
      const actions = async (organizationId: number) =>
        (await h.events.listNewestFirst(organizationId, {}, { limit: 100 })).reverse().map((event) => ({ action: event.action, actor: event.actor.type, details: event.details }));
      return { h, deliver, settings, subscribed, actions };
    }

    it('never leaves overage on once the subscription ended, whichever of the switch and the ending comes first', async () => {
      const { h, deliver, settings, subscribed, actions } = await world();
      for (let round = 0; round < options.rounds; round += 1) {
        for (const switchFirst of [true, false]) {
          const { organizationId, customerId, caller } = await subscribed();
          const end = () => deliver(changed(organizationId, customerId, { status: 'canceled', occurredAt: new Date(T0 + 1000) }));
          const enable = () => settings.execute(caller, { overageEnabled: true });
          const [first, second] = switchFirst ? [enable(), end()] : [end(), enable()];
          const results = await Promise.allSettled([first, second]);
          const switched = results[switchFirst ? 0 : 1]!;
          if (switched.status === 'rejected') expect(switched.reason).toMatchObject({ code: 'CONFLICT' });
          expect(results[switchFirst ? 1 : 0]!.status).toBe('fulfilled');
          expect((await h.subscriptions.findByOrganization(organizationId))?.status).toBe('canceled');
          expect((await h.organizations.findSettings(organizationId))?.overageEnabled, `round ${round}, switch first: ${switchFirst}`).toBe(false);
          // One event per change, in the order the changes committed: a switch that went through is
          // followed by the ending and the system turning it off again.
          const subscription = (status: string) => ({ status, product_id: 'prod_pro', price_id: 'price_pro', cancel_at_period_end: false });
          const started = { action: 'subscription.started', actor: 'system', to: subscription('active') };
          const ended = { action: 'subscription.ended', actor: 'system', to: subscription('canceled') };
          const overage = (actor: string, on: boolean) => ({ action: 'organization.settings_changed', actor, to: { overage_enabled: on } });
          const recorded = (await actions(organizationId)).map(({ action, actor, details }) => ({ action, actor, to: details.to }));
          expect(recorded, `round ${round}, switch first: ${switchFirst}`).toEqual(
            switched.status === 'fulfilled' ? [started, overage('user', true), ended, overage('system', false)] : [started, ended],
          );
        }
      }
    });

    it('keeps the live subscription when events of two subscriptions of the customer arrive at once', async () => {
      const { h, deliver, subscribed, actions } = await world();
      for (let round = 0; round < options.rounds; round += 1) {
        const { organizationId, customerId } = await subscribed();
        const second = changed(organizationId, customerId, { subscriptionId: `sub_${organizationId}_2`, productId: 'prod_basic', occurredAt: new Date(T0 + 1000) });
        await deliver(second);
        // The first subscription ends while the second one renews: the organization stays on the second.
        await Promise.all([
          deliver(changed(organizationId, customerId, { status: 'canceled', occurredAt: new Date(T0 + 5000) })),
          deliver({ ...second, id: `${second.id}_renewal`, occurredAt: new Date(T0 + 4000) }),
        ]);
        expect(await h.subscriptions.findByOrganization(organizationId)).toMatchObject({ subscriptionId: `sub_${organizationId}_2`, status: 'active', productId: 'prod_basic' });
        // Moving to the second subscription is a change; neither the first one's end nor the renewal moves the organization.
        expect((await actions(organizationId)).map((event) => event.action)).toEqual(['subscription.started', 'subscription.changed']);
      }
    });

    it('records one start when the checkout and the first subscription event arrive at once', async () => {
      const { h, deliver, actions } = await world();
      for (let round = 0; round < options.rounds; round += 1) {
        const { organizationId } = await h.newOrganization();
        const customerId = `cus_${organizationId}`;
        await h.subscriptions.saveCustomer(organizationId, customerId, h.clock.now());
        await Promise.all([
          deliver({ id: `evt_checkout_${organizationId}`, kind: 'checkout-completed', occurredAt: new Date(T0), organizationId, customerId, subscriptionId: `sub_${organizationId}_1`, paid: true }),
          deliver(changed(organizationId, customerId, {})),
        ]);
        // Whichever comes first starts it; the other only fills in what the first did not know.
        expect((await actions(organizationId)).map((event) => event.action), `round ${round}`).toEqual(['subscription.started']);
      }
    });
  });
}
