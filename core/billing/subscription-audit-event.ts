import { SYSTEM_ACTOR, NO_ORIGIN } from '../audit/audit-actor';
import type { NewAuditEvent } from '../audit/audit-event';
import { isLiveStatus, type Subscription } from './subscription';

/** What the audit log says of a subscription: its plan and where it stands, never payment details. */
const summary = (subscription: Subscription | null) =>
  subscription && {
    status: subscription.status,
    product_id: subscription.productId,
    price_id: subscription.priceId,
    cancel_at_period_end: subscription.cancelAtPeriodEnd,
  };

/** A value that was unknown becoming known (a checkout's provisional record filled in by its subscription's first event) is no change. */
const moved = <T>(before: T | null, after: T | null) => before !== null && before !== after;

/**
 * The event an organization's billing record going from `before` to `after` makes, recorded by
 * the service itself (a provider's webhook, no request of the organization's): `started` when it
 * becomes live, `ended` when it stops being live, `changed` when a live one changes status,
 * subscription, plan or its cancellation at period end. A renewal (only the period moves), a
 * redelivery and a subscription that never went live record nothing.
 */
export function subscriptionAuditEvent(organizationId: number, before: Subscription | null, after: Subscription | null): NewAuditEvent | null {
  const action = actionOf(before, after);
  if (action === null) return null;
  const subscriptionId = after?.subscriptionId ?? before?.subscriptionId ?? null;
  return {
    organizationId,
    action,
    actor: SYSTEM_ACTOR,
    target: subscriptionId === null ? null : { type: 'subscription', id: subscriptionId },
    origin: NO_ORIGIN,
    details: { from: summary(before), to: summary(after) },
  };
}

function actionOf(before: Subscription | null, after: Subscription | null): NewAuditEvent['action'] | null {
  const wasLive = isLiveStatus(before?.status);
  const isLive = isLiveStatus(after?.status);
  if (!wasLive && isLive) return 'subscription.started';
  if (wasLive && !isLive) return 'subscription.ended';
  if (before && after && wasLive && isLive && changedWhileLive(before, after)) return 'subscription.changed';
  return null;
}

const changedWhileLive = (before: Subscription, after: Subscription): boolean =>
  before.status !== after.status ||
  before.cancelAtPeriodEnd !== after.cancelAtPeriodEnd ||
  moved(before.subscriptionId, after.subscriptionId) ||
  moved(before.productId, after.productId) ||
  moved(before.priceId, after.priceId);
