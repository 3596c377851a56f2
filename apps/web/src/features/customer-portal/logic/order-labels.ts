import type { OrderBillingReason, OrderStatus } from '@tessera/sdk';

type Tone = 'neutral' | 'success' | 'warning' | 'danger' | 'info';

export const ORDER_STATUS: Record<OrderStatus, { label: string; tone: Tone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  paid: { label: 'Paid', tone: 'success' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  partially_refunded: { label: 'Partially refunded', tone: 'info' },
};

/** Why the order was billed, as its buyer reads it. */
export const BILLING_REASON: Record<OrderBillingReason, string> = {
  purchase: 'Purchase',
  subscription_create: 'Subscription started',
  subscription_cycle: 'Renewal',
  subscription_update: 'Plan change',
};
