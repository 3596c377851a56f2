import type { CustomerTimelineItem } from '@tessera/sdk';
import { formatMoney } from '../../../lib/format';

const CHANGE_TITLES: Record<string, string> = {
  created: 'Subscription started',
  trial_started: 'Trial started',
  trial_converted: 'Trial converted to paid',
  product_changed: 'Plan changed',
  discount_changed: 'Discount changed',
  canceled: 'Subscription canceled',
  uncanceled: 'Cancellation withdrawn',
  revoked: 'Subscription revoked',
  ended: 'Subscription ended',
  past_due: 'Renewal payment failed',
  recovered: 'Renewal payment recovered',
};

const BILLING_REASONS: Record<string, string> = {
  purchase: 'Purchase',
  subscription_create: 'First subscription payment',
  subscription_cycle: 'Renewal',
  subscription_update: 'Plan change',
};

const humanize = (text: string) => (text.charAt(0).toUpperCase() + text.slice(1)).replace(/_/g, ' ');

/** One timeline entry in words: a title and an optional line under it. */
export function describeTimelineItem(item: CustomerTimelineItem): { title: string; detail: string | null } {
  const money = item.amount !== null && item.currency ? formatMoney(item.amount, item.currency) : null;
  switch (item.type) {
    case 'order':
      return {
        title: `Order ${money ?? ''}`.trim(),
        detail: [BILLING_REASONS[item.description ?? ''] ?? item.description, item.status && humanize(item.status)]
          .filter(Boolean)
          .join(' · '),
      };
    case 'payment':
      return {
        title: `Payment ${item.status === 'failed' ? 'failed' : item.status === 'pending' ? 'pending' : 'received'}${money ? `: ${money}` : ''}`,
        detail: item.description,
      };
    case 'refund':
      return {
        title: `Refund${money ? ` of ${money}` : ''}`,
        detail: [item.description && humanize(item.description), item.status && humanize(item.status)]
          .filter(Boolean)
          .join(' · '),
      };
    case 'subscription_change': {
      const details = (item.details ?? {}) as Record<string, unknown>;
      const reason = typeof details.reason === 'string' ? humanize(details.reason) : null;
      const comment = typeof details.comment === 'string' ? `“${details.comment}”` : null;
      return {
        title: CHANGE_TITLES[item.status ?? ''] ?? 'Subscription changed',
        detail: [reason, comment].filter(Boolean).join(' · ') || null,
      };
    }
    case 'benefit_granted':
      return { title: 'Benefit granted', detail: item.description };
    case 'benefit_revoked':
      return { title: 'Benefit revoked', detail: item.description };
    case 'email':
      return { title: 'Email sent', detail: item.description };
  }
}
