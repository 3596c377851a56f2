import type { SubscriptionProrationBehavior } from '@tessera/sdk';

export const PRORATION_OPTIONS: { value: SubscriptionProrationBehavior; label: string }[] = [
  { value: 'prorate', label: 'Prorate: settle the difference on the next invoice' },
  { value: 'invoice', label: 'Invoice now: charge the difference immediately' },
];

export const ACTIVE_FILTER_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'inactive', label: 'Canceled or past due' },
];
