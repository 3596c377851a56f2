export const BILLING_TYPE_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'one_time', label: 'One-time' },
  { value: 'recurring', label: 'Subscriptions' },
];
