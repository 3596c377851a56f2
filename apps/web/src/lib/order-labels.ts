import type { OrderBillingReason, OrderStatus } from '@tessera/sdk';
import type { BadgeTone } from '../components/ui/badge';
import type { Audience } from './audience';

export const ORDER_STATUS: Record<OrderStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'warning' },
  paid: { label: 'Paid', tone: 'success' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  partially_refunded: { label: 'Partially refunded', tone: 'info' },
};

/** Why the order was billed, in the words of who reads it. */
export const BILLING_REASON: Record<Audience, Record<OrderBillingReason, string>> = {
  seller: {
    purchase: 'Purchase',
    subscription_create: 'New subscription',
    subscription_cycle: 'Renewal',
    subscription_update: 'Subscription change',
  },
  customer: {
    purchase: 'Purchase',
    subscription_create: 'Subscription started',
    subscription_cycle: 'Renewal',
    subscription_update: 'Plan change',
  },
};
