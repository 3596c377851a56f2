import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { memoized } from '../../platform/db/read-memo.js';
import type { TaxRules } from '../billing/billing.tax.js';

/** What `organizations.tax_settings` holds (migration 0026); a missing key is its default. */
export interface StoredTaxSettings {
  prices_include_tax?: boolean;
  home_country?: string | null;
  stripe_tax_enabled?: boolean;
}

export interface TaxSettingsView {
  prices_include_tax: boolean;
  home_country: string | null;
  stripe_tax_enabled: boolean;
}

export function taxSettingsOf(stored: unknown): TaxSettingsView {
  const settings = (stored ?? {}) as StoredTaxSettings;
  return {
    prices_include_tax: settings.prices_include_tax ?? false,
    home_country: settings.home_country ?? null,
    stripe_tax_enabled: settings.stripe_tax_enabled ?? false,
  };
}

export async function findTaxSettings(db: Executor, organizationId: string): Promise<TaxSettingsView> {
  const row = await db
    .selectFrom('organizations')
    .select('tax_settings')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return taxSettingsOf(row?.tax_settings);
}

export async function saveTaxSettings(db: Executor, organizationId: string, settings: TaxSettingsView, at: Date) {
  await db
    .updateTable('organizations')
    .set({ tax_settings: JSON.stringify(settings), modified_at: at })
    .where('id', '=', organizationId)
    .execute();
}

const REGISTRATIONS_JSON = sql<RegistrationRow[]>`coalesce(json_agg(json_build_object(
  'country', country, 'state', state, 'rate_basis_points', rate_basis_points, 'label', label)), '[]'::json)`;

/**
 * The rules a checkout or an order of the organization is taxed by, as they are now (a renewal reads
 * the rates in force at the renewal).
 */
export function findTaxRules(db: Executor, organizationId: string): Promise<TaxRules & { stripeTaxEnabled: boolean }> {
  return memoized(db, `findTaxRules:${organizationId}`, () => readTaxRules(db, organizationId));
}

async function readTaxRules(db: Executor, organizationId: string): Promise<TaxRules & { stripeTaxEnabled: boolean }> {
  // One statement: the settings with the registrations gathered beside them.
  const row = await db
    .selectFrom('organizations')
    .select((eb) => [
      'tax_settings',
      eb
        .selectFrom('tax_registrations')
        .select(REGISTRATIONS_JSON.as('list'))
        .where('tax_registrations.organization_id', '=', organizationId)
        .as('registrations'),
    ])
    .where('id', '=', organizationId)
    .executeTakeFirst();
  const settings = taxSettingsOf(row?.tax_settings);
  return {
    pricesIncludeTax: settings.prices_include_tax,
    homeCountry: settings.home_country,
    stripeTaxEnabled: settings.stripe_tax_enabled,
    registrations: (row?.registrations ?? []).map((registration) => ({
      ...registration,
      state: registration.state === '' ? null : registration.state,
    })),
  };
}

interface RegistrationRow {
  country: string;
  state: string;
  rate_basis_points: number;
  label: string;
}

/** false for a product the seller marked exempt from tax. */
export async function isProductTaxable(db: Executor, productId: string): Promise<boolean> {
  const row = await db
    .selectFrom('products')
    .select('is_tax_applicable')
    .where('id', '=', productId)
    .executeTakeFirst();
  return row?.is_tax_applicable ?? true;
}

export interface UnreversedRefund {
  refund_id: string;
  order_id: string;
  amount: number;
  tax_amount: number;
  order_total: number;
  tax_details: unknown;
}

/**
 * Succeeded refunds of orders whose tax Stripe Tax recorded, not yet reversed there (the order's
 * `tax_details.reversals` holds the refunds already reversed), oldest first.
 */
export async function findUnreversedStripeTaxRefunds(db: Executor, limit: number): Promise<UnreversedRefund[]> {
  return db
    .selectFrom('refunds')
    .innerJoin('orders', 'orders.id', 'refunds.order_id')
    .select([
      'refunds.id as refund_id',
      'orders.id as order_id',
      'refunds.amount',
      'refunds.tax_amount',
      'orders.total_amount as order_total',
      'orders.tax_details',
    ])
    .where('refunds.status', '=', 'succeeded')
    .where(sql<boolean>`orders.tax_details->>'provider' = 'stripe_tax'`)
    .where(sql<boolean>`orders.tax_details->>'transaction_id' is not null`)
    .where(sql<boolean>`not coalesce(orders.tax_details->'reversals' ? refunds.id::text, false)`)
    .orderBy('refunds.created_at')
    .limit(limit)
    .execute();
}

/** Records one refund's reversal on its order (under the order's row lock: two refunds never overwrite). */
export async function recordStripeTaxReversal(
  db: Executor,
  orderId: string,
  refundId: string,
  transactionId: string,
): Promise<void> {
  await db.selectFrom('orders').select('id').where('id', '=', orderId).forUpdate().executeTakeFirst();
  await db
    .updateTable('orders')
    .set({
      tax_details: sql`jsonb_set(orders.tax_details, '{reversals}', coalesce(orders.tax_details->'reversals', '{}'::jsonb) || jsonb_build_object(${refundId}::text, ${transactionId}::text))`,
    })
    .where('id', '=', orderId)
    .execute();
}

/** Order statuses whose tax was collected (a refund is reversed after, never instead). */
const COLLECTED = ['paid', 'partially_refunded', 'refunded'] as const;

export async function findOrderStripeTax(db: Executor, orderId: string) {
  return db.selectFrom('orders').select(['id', 'status', 'tax_details']).where('id', '=', orderId).executeTakeFirst();
}

/** Whether an order's status means its tax was collected. */
export function isCollected(status: string): boolean {
  return (COLLECTED as readonly string[]).includes(status);
}

/**
 * Paid orders taxed by Stripe Tax whose transaction is not recorded yet, oldest first (the partial
 * index of migration 0033 holds exactly those).
 */
export async function findOrdersWithoutStripeTaxTransaction(db: Executor, limit: number): Promise<{ id: string }[]> {
  return db
    .selectFrom('orders')
    .select('id')
    .where(sql<boolean>`orders.tax_details->>'provider' = 'stripe_tax'`)
    .where(sql<boolean>`orders.tax_details->>'calculation_id' is not null`)
    .where(sql<boolean>`orders.tax_details->>'transaction_id' is null`)
    .where('status', 'in', COLLECTED)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/**
 * Records an order's Stripe tax transaction, once: a second recorder (the job retried, the sweep) finds
 * it set and changes nothing. Only this key is written (a concurrent reversal keeps its own).
 */
export async function recordStripeTaxTransactionId(db: Executor, orderId: string, transactionId: string) {
  const result = await db
    .updateTable('orders')
    .set({
      tax_details: sql`jsonb_set(orders.tax_details, '{transaction_id}', to_jsonb(${transactionId}::text))`,
    })
    .where('id', '=', orderId)
    .where(sql<boolean>`orders.tax_details->>'transaction_id' is null`)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
