import type { OrganizationAccessTokenCreate } from '@tessera/sdk';

type Scope = OrganizationAccessTokenCreate['scopes'][number];

/** The resources a seller's integration reaches, each offered as read and write. */
export const SCOPE_GROUPS: { label: string; read: Scope; write?: Scope }[] = [
  { label: 'Organizations', read: 'organizations:read', write: 'organizations:write' },
  { label: 'Products', read: 'products:read', write: 'products:write' },
  { label: 'Benefits', read: 'benefits:read', write: 'benefits:write' },
  { label: 'Discounts', read: 'discounts:read', write: 'discounts:write' },
  { label: 'Checkout links', read: 'checkout_links:read', write: 'checkout_links:write' },
  { label: 'Checkouts', read: 'checkouts:read', write: 'checkouts:write' },
  { label: 'Customers', read: 'customers:read', write: 'customers:write' },
  { label: 'Customer sessions', read: 'customer_sessions:write' },
  { label: 'Custom fields', read: 'custom_fields:read', write: 'custom_fields:write' },
  { label: 'Orders', read: 'orders:read', write: 'orders:write' },
  { label: 'Subscriptions', read: 'subscriptions:read', write: 'subscriptions:write' },
  { label: 'Payments', read: 'payments:read' },
  { label: 'Webhooks', read: 'webhooks:read', write: 'webhooks:write' },
  { label: 'License keys', read: 'license_keys:read', write: 'license_keys:write' },
];

export const ALL_SCOPES: Scope[] = SCOPE_GROUPS.flatMap((group) =>
  group.write ? [group.read, group.write] : [group.read],
);

export const EXPIRY_OPTIONS = [
  { value: String(7 * 86_400), label: '7 days' },
  { value: String(30 * 86_400), label: '30 days' },
  { value: String(90 * 86_400), label: '90 days' },
  { value: String(365 * 86_400), label: '1 year' },
  { value: 'never', label: 'Never' },
];

export type { Scope };
