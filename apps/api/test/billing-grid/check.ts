import type { Observed, WireOrder } from './driver.js';
import type { ExpectedItem, Outcome } from './model.js';

/**
 * What a cell asserts: the orders, payments, subscription and credit balance the reference model
 * expects, field by field, and invariants that hold whatever the scenario.
 */

export interface Mismatch {
  field: string;
  expected: string;
  actual: string;
}

const iso = (date: Date | null) => (date ? date.toISOString() : 'null');
const isoOf = (value: string | null | undefined) => (value ? new Date(value).toISOString() : 'null');

/**
 * Items compared without their order, as `<amount>` (period), `p<amount>` (proration) or `b<amount>`
 * (credit moved to the balance); proration items of 0 are left out (nothing to bill either way).
 */
function itemKey(items: ExpectedItem[]): string {
  return items
    .filter((item) => !(item.proration && item.amount === 0))
    .map((item) => `${item.toBalance ? 'b' : item.proration ? 'p' : ''}${item.amount}`)
    .sort()
    .join(' ');
}

/** A renewal or update order's line without a "From … to …" range is the line to the credit balance. */
function wireItems(order: WireOrder): ExpectedItem[] {
  return order.items.map((item) => ({
    amount: item.amount,
    proration: item.proration,
    toBalance: order.billing_reason !== 'subscription_create' && !/From .+ to /.test(item.label),
  }));
}

export function compare(expected: Outcome, observed: Observed): Mismatch[] {
  const mismatches: Mismatch[] = [];
  const check = (field: string, want: unknown, got: unknown) => {
    if (String(want) !== String(got)) mismatches.push({ field, expected: String(want), actual: String(got) });
  };

  for (const error of observed.errors) mismatches.push({ field: 'http', expected: '2xx', actual: error });

  const orders = observed.orders;
  check(
    'orders',
    expected.orders.map((o) => `${o.billingReason}:${o.total}`).join(', '),
    orders.map((o) => `${o.billing_reason}:${o.total_amount}`).join(', '),
  );
  const count = Math.min(expected.orders.length, orders.length);
  for (let i = 0; i < count; i += 1) {
    const want = expected.orders[i]!;
    const got = orders[i]!;
    const at = `order[${i}]`;
    check(`${at}.created_at`, iso(want.at), isoOf(got.created_at));
    check(`${at}.billing_reason`, want.billingReason, got.billing_reason);
    check(`${at}.items`, itemKey(want.items), itemKey(wireItems(got)));
    check(`${at}.subtotal`, want.subtotal, got.subtotal_amount);
    check(`${at}.discount`, want.discount, got.discount_amount);
    check(`${at}.net`, want.net, got.net_amount);
    check(`${at}.total`, want.total, got.total_amount);
    check(`${at}.status`, want.status, got.status);
    check(`${at}.applied_balance_amount`, want.balanceApplied, got.applied_balance_amount ?? 'missing');
    check(`${at}.due_amount`, want.charged, got.due_amount ?? 'missing');
  }

  const index = new Map(orders.map((order, i) => [order.id, i]));
  // A payment is made by the billing run at its due instant, or within the minute after a change.
  const minute = (value: number) => new Date(Math.floor(value / 60_000) * 60_000).toISOString();
  const wantPayments = expected.payments.map(
    (p) => `${minute(p.at.getTime())} order[${p.order}] ${p.amount} ${p.status}`,
  );
  const gotPayments = observed.payments.map(
    (p) => `${minute(Date.parse(p.created_at))} order[${index.get(p.order_id ?? '') ?? '?'}] ${p.amount} ${p.status}`,
  );
  check('payments.count', wantPayments.length, gotPayments.length);
  const firstDifferent = wantPayments.findIndex((want, i) => want !== gotPayments[i]);
  if (firstDifferent >= 0)
    check(`payments[${firstDifferent}]`, wantPayments[firstDifferent], gotPayments[firstDifferent] ?? 'none');

  const sub = expected.subscription;
  const got = observed.subscription;
  check('subscription.status', sub.status, got.status);
  check('subscription.current_period_start', iso(sub.currentPeriodStart), isoOf(got.current_period_start));
  check('subscription.current_period_end', iso(sub.currentPeriodEnd), isoOf(got.current_period_end));
  check('subscription.cancel_at_period_end', sub.cancelAtPeriodEnd, got.cancel_at_period_end);
  check('subscription.ended_at', iso(sub.endedAt), isoOf(got.ended_at));
  check('subscription.product', sub.plan, observed.plans[got.product_id] ?? got.product_id);
  check('subscription.trial_start', iso(sub.trialStart), isoOf(got.trial_start));
  check('subscription.trial_end', iso(sub.trialEnd), isoOf(got.trial_end));
  check('customer.credit_balance', expected.creditBalance, observed.creditBalance ?? 'missing');
  check('customer_state.credit_balance', expected.creditBalance, observed.stateCreditBalance ?? 'missing');

  mismatches.push(...invariants(observed));
  return mismatches;
}

const MONTHS: Record<string, number> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

/** The "From Mon D, YYYY to Mon D, YYYY" of an item label (the reference's label format), as day numbers. */
function labelRange(label: string): [number, number] | null {
  const match = /From (\w{3}) (\d{1,2}), (\d{4}) to (\w{3}) (\d{1,2}), (\d{4})/.exec(label);
  if (!match) return null;
  const day = (m: string, d: string, y: string) => Date.UTC(Number(y), MONTHS[m] ?? NaN, Number(d)) / 86_400_000;
  return [day(match[1]!, match[2]!, match[3]!), day(match[4]!, match[5]!, match[6]!)];
}

/** Rules that hold in every cell, read from what the API shows. */
export function invariants(observed: Observed): Mismatch[] {
  const found: Mismatch[] = [];
  const fail = (field: string, expected: string, actual: string) => found.push({ field, expected, actual });
  const { orders, payments } = observed;
  const succeeded = payments.filter((p) => p.status === 'succeeded');
  const paidOrders = orders.filter((o) => ['paid', 'refunded', 'partially_refunded'].includes(o.status));
  const balance = observed.creditBalance ?? 0;

  // No negative (or empty) charge.
  for (const payment of payments)
    if (payment.amount <= 0) fail('invariant: no charge ≤ 0', '> 0', `${payment.amount} (${payment.status})`);

  // Items sum to the subtotal; net and total follow from it.
  for (const [i, order] of orders.entries()) {
    const sum = order.items.reduce((total, item) => total + item.amount, 0);
    if (sum !== order.subtotal_amount)
      fail(`invariant: order[${i}] items sum to subtotal`, `${order.subtotal_amount}`, `${sum}`);
    if (order.net_amount !== order.subtotal_amount - order.discount_amount)
      fail(
        `invariant: order[${i}] net = subtotal − discount`,
        `${order.subtotal_amount - order.discount_amount}`,
        `${order.net_amount}`,
      );
    if (order.total_amount !== order.net_amount + order.tax_amount)
      fail(
        `invariant: order[${i}] total = net + tax`,
        `${order.net_amount + order.tax_amount}`,
        `${order.total_amount}`,
      );
  }

  // Each order is charged at most what it owes after the credit balance it used.
  const usedBalance = (order: WireOrder) => order.applied_balance_amount ?? 0;
  const paidBy = new Map<string, number>();
  for (const payment of succeeded)
    paidBy.set(payment.order_id ?? '', (paidBy.get(payment.order_id ?? '') ?? 0) + payment.amount);
  for (const [i, order] of orders.entries()) {
    const owed = Math.max(0, order.total_amount - usedBalance(order));
    const charged = paidBy.get(order.id) ?? 0;
    if (charged > owed) fail(`invariant: order[${i}] never charged more than it owes`, `≤ ${owed}`, `${charged}`);
    if (order.status === 'paid' && charged !== owed)
      fail(`invariant: order[${i}] paid = charged + balance used`, `${owed}`, `${charged}`);
  }
  if (paidBy.has('')) fail('invariant: every payment has an order', 'order_id', 'null');

  // charged = paid orders − refunds (none yet) − the credit balance they used.
  const charged = succeeded.reduce((sum, p) => sum + p.amount, 0);
  const paidTotals = paidOrders.reduce((sum, o) => sum + o.total_amount, 0);
  const paidFromBalance = paidOrders.reduce((sum, o) => sum + usedBalance(o), 0);
  if (charged !== paidTotals - paidFromBalance)
    fail('invariant: charged = paid orders − balance used', `${paidTotals} − ${paidFromBalance}`, `${charged}`);

  // credits created = credits applied + balance; a credit carries the tax on it to the balance.
  const created = orders
    .flatMap((order) => order.items.filter((_, index) => wireItems(order)[index]!.toBalance))
    .reduce((sum, item) => sum + item.amount + item.tax_amount, 0);
  if (observed.creditBalance !== undefined && created !== paidFromBalance + balance)
    fail('invariant: credits created = applied + balance', `${paidFromBalance} + ${balance}`, `${created}`);

  // Nothing is sold or charged during a trial: no order and no payment before its end, no checkout order.
  const trialEnd = observed.subscription.trial_end ? Date.parse(observed.subscription.trial_end) : null;
  if (trialEnd !== null) {
    for (const [i, order] of orders.entries()) {
      if (Date.parse(order.created_at) < trialEnd)
        fail(`invariant: order[${i}] not during the trial`, `≥ ${observed.subscription.trial_end}`, order.created_at);
      if (order.billing_reason === 'subscription_create')
        fail(`invariant: order[${i}] a trial's checkout sells nothing`, 'no subscription_create', 'one');
    }
    for (const payment of payments)
      if (Date.parse(payment.created_at) < trialEnd)
        fail('invariant: no charge during the trial', `≥ ${observed.subscription.trial_end}`, payment.created_at);
  }

  // Periods contiguous and never billed twice: the cycle items' ranges follow each other.
  const periodItems = orders
    .filter((order) => order.billing_reason !== 'subscription_create')
    .flatMap((order: WireOrder) => order.items.filter((item) => !item.proration && item.amount > 0));
  const ranges = periodItems
    .map((item) => labelRange(item.label))
    .filter((range): range is [number, number] => range !== null)
    .sort((a, b) => a[0] - b[0]);
  if (ranges.length < periodItems.length)
    fail('invariant: a period item names its period', 'From … to …', periodItems.map((i) => i.label).join(' | '));
  for (let i = 1; i < ranges.length; i += 1) {
    const [previous, current] = [ranges[i - 1]!, ranges[i]!];
    if (current[0] === previous[0])
      fail('invariant: a period billed once', 'distinct periods', `twice from day ${current[0]}`);
    else if (current[0] > previous[1])
      fail('invariant: periods contiguous', `from day ${previous[1]}`, `from day ${current[0]}`);
  }
  return found;
}

/** The failures of a run as a table: cell, field, expected, actual (long values cut). */
export function failureTable(rows: { cell: string; mismatch: Mismatch }[]): string {
  const cut = (text: string, width: number) =>
    text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
  const lines = [`${'cell'.padEnd(72)} ${'field'.padEnd(44)} ${'expected'.padEnd(56)} actual`];
  for (const { cell, mismatch } of rows)
    lines.push(
      `${cell.padEnd(72)} ${cut(mismatch.field, 44)} ${cut(mismatch.expected, 56)} ${mismatch.actual.slice(0, 200)}`,
    );
  return lines.join('\n');
}
