/** The scopes of spec document 2 §3. */
const READ_WRITE = [
  'organizations',
  'custom_fields',
  'discounts',
  'checkout_links',
  'checkouts',
  'transactions',
  'payouts',
  'products',
  'benefits',
  'events',
  'meters',
  'files',
  'subscriptions',
  'customers',
  'orders',
  'refunds',
  'disputes',
  'webhooks',
  'license_keys',
  'repositories',
  'issues',
  'customer_portal',
  'notifications',
  'notification_recipients',
] as const;

export const SCOPES = [
  'openid',
  'profile',
  'email',
  'user:read',
  'admin',
  'web_default',
  ...READ_WRITE.flatMap((resource) => [`${resource}:read`, `${resource}:write`] as const),
  'customer_meters:read',
  'customer_sessions:write',
  'payments:read',
  'metrics:read',
  'external_organizations:read',
] as const;

export type Scope = (typeof SCOPES)[number];

export const RESERVED_SCOPES: readonly Scope[] = ['admin', 'web_default'];

/** Every scope a token or OAuth client may hold (the default for new clients and CLI tokens). */
export const GRANTABLE_SCOPES: Scope[] = SCOPES.filter((scope) => !RESERVED_SCOPES.includes(scope));

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * A route's requirement: any one of the listed scopes suffices. `read('x')` accepts x:read, x:write and
 * web_default; `write('x')` accepts x:write and web_default, as the reference does.
 */
export function read(resource: string): Scope[] {
  return ['web_default', `${resource}:read`, `${resource}:write`].filter(isScope);
}

export function write(resource: string): Scope[] {
  return ['web_default', `${resource}:write`].filter(isScope);
}

export function hasAnyScope(held: Iterable<string>, required: readonly string[]): boolean {
  const set = new Set(held);
  return required.length === 0 || required.some((scope) => set.has(scope));
}
