import type { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { pageOf, type PageParams } from '../../platform/http/query.js';
import { iso } from '../../platform/http/schemas.js';
import type { CustomerTimeline } from './customers.schemas.js';
import { getCustomer } from './customers.service.js';
import {
  findCustomerLifetimeValue,
  findCustomerTimeline,
  type LifetimeValueRow,
  type TimelineRow,
} from './customers.timeline.repository.js';

export type CustomerTimelineWire = z.input<typeof CustomerTimeline>;

/** Lifetime value per currency: paid minus refunded, in minor units (integers, summed by the database). */
export function lifetimeValue(rows: LifetimeValueRow[]) {
  return rows.map((row) => {
    const paid = Number(row.paid);
    const refunded = Number(row.refunded);
    return { currency: row.currency, paid_amount: paid, refunded_amount: refunded, net_amount: paid - refunded };
  });
}

function serializeItem(row: TimelineRow) {
  return {
    id: row.id,
    type: row.type,
    occurred_at: iso(new Date(row.occurred_at)),
    resource_id: row.resource_id,
    status: row.status,
    amount: row.amount === null ? null : Number(row.amount),
    currency: row.currency,
    description: row.description,
    subscription_id: row.subscription_id,
    details: (typeof row.details === 'string' ? JSON.parse(row.details) : row.details) as Record<
      string,
      unknown
    > | null,
  };
}

/** The customer's timeline, newest first, and its lifetime value (extension). */
export async function getCustomerTimeline(ctx: Context, id: string, params: PageParams): Promise<CustomerTimelineWire> {
  const customer = await getCustomer(ctx, { id });
  const { rows, total } = await findCustomerTimeline(ctx.db, customer, params);
  const page = pageOf(rows.map(serializeItem), total, params);
  return { ...page, lifetime_value: lifetimeValue(await findCustomerLifetimeValue(ctx.db, customer.id)) };
}
