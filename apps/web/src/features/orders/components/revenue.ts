import type { Order } from '@tessera/sdk';

type RevenueOrder = Pick<Order, 'created_at' | 'status' | 'net_amount' | 'refunded_amount' | 'currency'>;

export interface DailyRevenue {
  /** The local calendar day, YYYY-MM-DD. */
  day: string;
  /** Local midnight of the day. */
  date: Date;
  /** Minor units of the currency charted. */
  amount: number;
}

/** Money in: a paid order, whatever was refunded since (refunds are subtracted, not the order dropped). */
const COUNTED = new Set<Order['status']>(['paid', 'partially_refunded', 'refunded']);

function dayKey(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/**
 * Today as the organization lives it: the browser's time plus how far its test clock runs ahead of the
 * server's (0 without a test clock), the same rule the API applies to the organization's requests.
 */
export function organizationNow(browserNow: number, offsetSeconds: number | null | undefined): Date {
  return new Date(browserNow + (offsetSeconds ?? 0) * 1000);
}

/** Local midnight of the first of the `days` calendar days that end today. */
export function windowStart(today: Date, days: number): Date {
  return new Date(today.getFullYear(), today.getMonth(), today.getDate() - (days - 1));
}

/**
 * Revenue per local calendar day over the `days` days ending today, in one currency: the net amount
 * (after discounts, before tax) of paid orders less what was refunded of it. Days without orders are 0.
 */
export function revenuePerDay(
  orders: readonly RevenueOrder[],
  currency: string,
  today: Date,
  days: number,
): DailyRevenue[] {
  const start = windowStart(today, days);
  const series = Array.from({ length: days }, (_, index) => {
    const date = new Date(start.getFullYear(), start.getMonth(), start.getDate() + index);
    return { day: dayKey(date), date, amount: 0 };
  });
  const byDay = new Map(series.map((entry) => [entry.day, entry]));
  for (const order of orders) {
    if (order.currency !== currency || !COUNTED.has(order.status)) continue;
    const entry = byDay.get(dayKey(new Date(order.created_at)));
    if (entry) entry.amount += order.net_amount - order.refunded_amount;
  }
  return series;
}

/** The currency most orders were paid in (the one worth charting), or null without paid orders. */
export function mainCurrency(orders: readonly RevenueOrder[]): string | null {
  const counts = new Map<string, number>();
  for (const order of orders) {
    if (COUNTED.has(order.status)) counts.set(order.currency, (counts.get(order.currency) ?? 0) + 1);
  }
  let best: string | null = null;
  for (const [currency, count] of counts) if (best === null || count > counts.get(best)!) best = currency;
  return best;
}

/** Currencies of paid orders other than `currency`, left out of a one-currency chart. */
export function otherCurrencies(orders: readonly RevenueOrder[], currency: string): string[] {
  return [...new Set(orders.filter((o) => COUNTED.has(o.status) && o.currency !== currency).map((o) => o.currency))];
}
