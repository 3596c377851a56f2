import { createHash } from 'node:crypto';
import type { z } from 'zod/v4';
import { serializeAddress } from '../../platform/http/countries.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { iso } from '../../platform/http/schemas.js';
import type { CustomerRow } from './customers.repository.js';
import type { Customer, CustomerState } from './customers.schemas.js';

export type CustomerWire = z.input<typeof Customer>;
export type CustomerStateWire = z.input<typeof CustomerState>;

/** Avatar URLs by email: a customer is serialized several times a billing run (each event's payload). */
const avatarUrls = new Map<string, string>();
const AVATAR_URLS_KEPT = 10_000;

/**
 * The avatar the reference shows: Gravatar by the SHA-256 of the lower-cased email, blank when the
 * address has none. Only a URL is built; nothing is fetched.
 */
export function customerAvatarUrl(email: string): string {
  let url = avatarUrls.get(email);
  if (url === undefined) {
    const hash = createHash('sha256').update(email.toLowerCase(), 'utf8').digest('hex');
    url = `https://www.gravatar.com/avatar/${hash}?d=blank`;
    if (avatarUrls.size >= AVATAR_URLS_KEPT) avatarUrls.clear();
    avatarUrls.set(email, url);
  }
  return url;
}

export function serializeCustomer(row: CustomerRow): CustomerWire {
  return {
    id: row.id,
    created_at: iso(row.created_at),
    modified_at: iso(row.modified_at),
    metadata: (row.metadata ?? {}) as Metadata,
    external_id: row.external_id,
    email: row.email,
    email_verified: row.email_verified,
    type: 'individual',
    name: row.name,
    billing_name: null,
    billing_address: serializeAddress(row.billing_address),
    tax_id: (row.tax_id ?? null) as CustomerWire['tax_id'],
    organization_id: row.organization_id,
    deleted_at: iso(row.deleted_at),
    avatar_url: customerAvatarUrl(row.email),
    ...creditBalanceOf(row),
  };
}

/** The stored balances by currency, and the one balance to show (see the wire description). */
export function creditBalanceOf(row: Pick<CustomerRow, 'credit_balances'>) {
  const balances = { ...((row.credit_balances ?? {}) as Record<string, number>) };
  const currencies = Object.keys(balances);
  const shown = currencies.length === 1 ? balances[currencies[0]!]! : (balances.usd ?? 0);
  return { credit_balance: shown, credit_balances: balances };
}

/** Subscriptions, grants and meters join in as their modules land; until then the lists are empty. */
export function serializeCustomerState(row: CustomerRow): CustomerStateWire {
  return { ...serializeCustomer(row), active_subscriptions: [], granted_benefits: [], active_meters: [] };
}
