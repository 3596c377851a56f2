import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

export interface TaxReportAggregate {
  country: string;
  state: string | null;
  label: string | null;
  rate_basis_points: number;
  reverse_charge: boolean;
  currency: string;
  order_count: number;
  taxable_amount: number;
  tax_amount: number;
  refunded_amount: number;
  refunded_tax_amount: number;
}

/**
 * The organization's taxed orders created in [from, to), grouped by the jurisdiction, rate and label
 * they were taxed at (a rate changed mid-period gives two rows). Pending orders (not paid) are left out.
 */
export async function aggregateTaxReport(
  db: Executor,
  organizationId: string,
  from: Date,
  to: Date,
): Promise<TaxReportAggregate[]> {
  const country = sql<string>`orders.tax_details->>'country'`;
  const state = sql<string | null>`orders.tax_details->>'state'`;
  const label = sql<string | null>`orders.tax_details->>'label'`;
  const rate = sql<number>`coalesce((orders.tax_details->>'rate_basis_points')::int, 0)`;
  const reverse = sql<boolean>`coalesce((orders.tax_details->>'reverse_charge')::boolean, false)`;
  const rows = await db
    .selectFrom('orders')
    .select([
      country.as('country'),
      state.as('state'),
      label.as('label'),
      rate.as('rate_basis_points'),
      reverse.as('reverse_charge'),
      'orders.currency',
      sql<string>`count(*)`.as('order_count'),
      sql<string>`sum(orders.net_amount)`.as('taxable_amount'),
      sql<string>`sum(orders.tax_amount)`.as('tax_amount'),
      sql<string>`sum(orders.refunded_amount)`.as('refunded_amount'),
      sql<string>`sum(orders.refunded_tax_amount)`.as('refunded_tax_amount'),
    ])
    .where('orders.organization_id', '=', organizationId)
    .where('orders.tax_details', 'is not', null)
    .where('orders.status', '!=', 'pending')
    .where('orders.created_at', '>=', from)
    .where('orders.created_at', '<', to)
    .groupBy([country, state, label, rate, reverse, 'orders.currency'])
    .orderBy(country)
    .orderBy(sql`${state} nulls first`)
    .orderBy('orders.currency')
    .orderBy(rate)
    .execute();
  return rows.map((row) => ({
    ...row,
    order_count: Number(row.order_count),
    taxable_amount: Number(row.taxable_amount),
    tax_amount: Number(row.tax_amount),
    refunded_amount: Number(row.refunded_amount),
    refunded_tax_amount: Number(row.refunded_tax_amount),
  }));
}
