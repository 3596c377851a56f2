import type { CustomerCancellationReason, Subscription, SubscriptionProrationBehavior } from '@tessera/sdk';
import { formatDate } from '../../../lib/format';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

type StatusFields = Pick<Subscription, 'status' | 'cancel_at_period_end' | 'ends_at' | 'ended_at'>;

/** The status as a seller reads it: an active subscription set to cancel says when it ends. */
export function describeStatus(subscription: StatusFields): { label: string; tone: Tone } {
  if (subscription.ended_at || subscription.status === 'canceled') return { label: 'Canceled', tone: 'neutral' };
  if (subscription.cancel_at_period_end)
    return { label: `Cancels ${formatDate(subscription.ends_at)}`, tone: 'warning' };
  switch (subscription.status) {
    case 'active':
      return { label: 'Active', tone: 'success' };
    case 'trialing':
      return { label: 'Trial', tone: 'info' };
    case 'past_due':
      return { label: 'Past due', tone: 'danger' };
    case 'unpaid':
      return { label: 'Unpaid', tone: 'danger' };
    case 'incomplete':
      return { label: 'Incomplete', tone: 'warning' };
    case 'incomplete_expired':
      return { label: 'Expired', tone: 'neutral' };
  }
}

/** Billed statuses, in which the subscription can still be canceled, revoked or changed. */
const BILLABLE = new Set<Subscription['status']>(['trialing', 'active', 'past_due']);

/** Which actions the API accepts for the subscription as it is now. */
export function availableActions(subscription: StatusFields) {
  const isLive = BILLABLE.has(subscription.status) && !subscription.ended_at;
  return {
    cancel: isLive && !subscription.cancel_at_period_end && !subscription.ends_at,
    uncancel: subscription.status === 'active' && subscription.cancel_at_period_end && !subscription.ended_at,
    revoke: isLive,
    changeProduct: isLive && !subscription.cancel_at_period_end,
  };
}

export const CANCELLATION_REASONS: { value: CustomerCancellationReason; label: string }[] = [
  { value: 'too_expensive', label: 'Too expensive' },
  { value: 'missing_features', label: 'Missing features' },
  { value: 'switched_service', label: 'Switched to another service' },
  { value: 'unused', label: 'Not used enough' },
  { value: 'customer_service', label: 'Customer service' },
  { value: 'low_quality', label: 'Quality' },
  { value: 'too_complex', label: 'Too complex' },
  { value: 'other', label: 'Other' },
];

export function cancellationReasonLabel(reason: CustomerCancellationReason): string {
  return CANCELLATION_REASONS.find((option) => option.value === reason)?.label ?? reason;
}

export const PRORATION_OPTIONS: { value: SubscriptionProrationBehavior; label: string }[] = [
  { value: 'prorate', label: 'Prorate: settle the difference on the next invoice' },
  { value: 'invoice', label: 'Invoice now: charge the difference immediately' },
];

export const ACTIVE_FILTER_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Canceled or past due' },
];
