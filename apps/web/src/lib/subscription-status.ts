import type { CustomerCancellationReason, SubscriptionStatus } from '@tessera/sdk';
import type { BadgeTone } from '../components/ui/badge';
import type { Audience } from './audience';
import { formatDate } from './format';

/** What the rules below read of a subscription (the seller's and the portal's shapes both have it). */
export interface SubscriptionState {
  status: SubscriptionStatus;
  cancel_at_period_end: boolean;
  ends_at: string | null;
  ended_at: string | null;
  /** When a free trial ends (docs/trials.md). */
  trial_end?: string | null;
}

const STATUS: Record<Exclude<SubscriptionStatus, 'canceled'>, { tone: BadgeTone } & Record<Audience, string>> = {
  active: { tone: 'success', seller: 'Active', customer: 'Active' },
  trialing: { tone: 'info', seller: 'Trial', customer: 'Trial' },
  past_due: { tone: 'danger', seller: 'Past due', customer: 'Payment overdue' },
  unpaid: { tone: 'danger', seller: 'Unpaid', customer: 'Unpaid' },
  incomplete: { tone: 'warning', seller: 'Incomplete', customer: 'Awaiting payment' },
  incomplete_expired: { tone: 'neutral', seller: 'Expired', customer: 'Expired' },
};

/** The status in the reader's words: one set to cancel says when it ends. */
export function describeStatus(
  subscription: SubscriptionState,
  audience: Audience,
): { label: string; tone: BadgeTone } {
  if (subscription.ended_at || subscription.status === 'canceled') return { label: 'Canceled', tone: 'neutral' };
  if (subscription.cancel_at_period_end) {
    const verb = audience === 'seller' ? 'Cancels' : 'Ends';
    return { label: `${verb} ${formatDate(subscription.ends_at)}`, tone: 'warning' };
  }
  const status = STATUS[subscription.status];
  if (subscription.status === 'trialing' && subscription.trial_end)
    return { label: `Trial until ${formatDate(subscription.trial_end)}`, tone: status.tone };
  return { label: status[audience], tone: status.tone };
}

/** Billed statuses, in which the subscription can still be canceled, revoked or changed. */
const BILLABLE = new Set<SubscriptionStatus>(['trialing', 'active', 'past_due']);

/** Which changes the API accepts for the subscription as it is now (revoking is the seller's alone). */
export function availableActions(subscription: SubscriptionState) {
  const isLive = BILLABLE.has(subscription.status) && !subscription.ended_at;
  return {
    cancel: isLive && !subscription.cancel_at_period_end && !subscription.ends_at,
    uncancel:
      (subscription.status === 'active' || subscription.status === 'trialing') &&
      subscription.cancel_at_period_end &&
      !subscription.ended_at,
    revoke: isLive,
    changeProduct: isLive && !subscription.cancel_at_period_end,
  };
}

const CANCELLATION_REASON: Record<CustomerCancellationReason, Record<Audience, string>> = {
  too_expensive: { seller: 'Too expensive', customer: 'Too expensive' },
  missing_features: { seller: 'Missing features', customer: 'Missing features' },
  switched_service: { seller: 'Switched to another service', customer: 'Switched to another service' },
  unused: { seller: 'Not used enough', customer: 'I don’t use it enough' },
  customer_service: { seller: 'Customer service', customer: 'Customer service' },
  low_quality: { seller: 'Quality', customer: 'Quality was not good enough' },
  too_complex: { seller: 'Too complex', customer: 'Too complicated' },
  other: { seller: 'Other', customer: 'Other' },
};

/** The reasons a customer gives for canceling, as options in the reader's words. */
export function cancellationReasons(audience: Audience): { value: CustomerCancellationReason; label: string }[] {
  return Object.entries(CANCELLATION_REASON).map(([value, labels]) => ({
    value: value as CustomerCancellationReason,
    label: labels[audience],
  }));
}

export function cancellationReasonLabel(reason: CustomerCancellationReason, audience: Audience): string {
  return CANCELLATION_REASON[reason]?.[audience] ?? reason;
}
