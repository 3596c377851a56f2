import type { OrderBillingReason, OrderStatus } from '@tessera/sdk';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

export const ORDER_STATUS: Record<OrderStatus, { label: string; tone: Tone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  paid: { label: 'Paid', tone: 'success' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  partially_refunded: { label: 'Partially refunded', tone: 'info' },
};

export const BILLING_REASON: Record<OrderBillingReason, string> = {
  purchase: 'Purchase',
  subscription_create: 'New subscription',
  subscription_cycle: 'Renewal',
  subscription_update: 'Subscription change',
};

export const BILLING_TYPE_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'one_time', label: 'One-time' },
  { value: 'recurring', label: 'Subscriptions' },
];
