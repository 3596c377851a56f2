import type { Context } from '../../platform/context.js';
import { iso } from '../../platform/http/schemas.js';
import { settleWithBalance, type CycleLine, type EntryLine } from '../billing/billing.money.js';
import { quoteSubscriptionOrder, type BillSubscriptionInput } from '../billing/billing.orders.js';
import { findBillingCustomer } from '../billing/billing.repository.js';
import { findProductRowsByIds } from '../orders/orders.repository.js';
import { plannedRenewal } from './subscriptions.plan-change.js';
import {
  findPendingBillingEntries,
  findSubscriptionPrices,
  findVisibleSubscription,
  type SubscriptionRow,
} from './subscriptions.repository.js';
import { findDiscountsByIds } from '../discounts/discounts.repository.js';
import type { SubscriptionPreviewInput, SubscriptionPreviewWire } from './subscriptions.schemas.js';
import { discountAppliedAt, loadDiscountChange, loadPlanChange } from './subscriptions.service.js';
import { duringTrial, trialEndOf } from './subscriptions.trials.js';
import { ResourceNotFound } from '../../platform/http/errors.js';

type PreviewOrder = NonNullable<SubscriptionPreviewWire['immediate']>;

/**
 * A dry run of a plan or discount change (or of nothing: the next renewal as it stands): the update's own validation and plan (`loadPlanChange`,
 * `loadDiscountChange`), priced by `quoteSubscriptionOrder` as `billSubscription` prices the real
 * orders, with nothing written (no lock, no entry, no order). What it cannot know yet is left out: the
 * usage of metered prices, and tax answered by Stripe Tax (the registrations answer here).
 */
export async function previewSubscriptionChange(
  ctx: Context,
  row: SubscriptionRow,
  input: SubscriptionPreviewInput,
): Promise<SubscriptionPreviewWire> {
  const pending: EntryLine[] = (await findPendingBillingEntries(ctx.db, row.id)).map((entry) => ({
    id: entry.id,
    label: entry.label,
    amount: entry.amount,
    product_price_id: entry.product_price_id,
  }));
  const customer = await findBillingCustomer(ctx.db, row.customer_id);
  let balance = customer?.credit_balances[row.currency] ?? 0;

  let after: SubscriptionRow;
  let entries: EntryLine[] = pending;
  let immediate: PreviewOrder | null = null;
  let productName: string;
  let snapshot;
  let discount;
  if ('product_id' in input) {
    const loaded = await loadPlanChange(ctx, row, input.product_id, input.proration_behavior ?? null);
    // During a trial nothing is prorated or billed: the trial continues on the new plan (docs/trials.md).
    const plan = row.status === 'trialing' ? duringTrial(loaded.plan, trialEndOf(row)) : loaded.plan;
    after = { ...row, ...plan.changes };
    productName = loaded.bundle.product.name;
    snapshot = loaded.newSnapshot;
    discount = loaded.keepDiscount;
    entries = [...pending, ...plan.entries.map((entry, index) => ({ ...entry, id: `planned-${index}` }))];
    if (plan.bill) {
      const bill: BillSubscriptionInput = { reason: 'subscription_update', ...plan.bill };
      const quoted = await quote(ctx, after, bill, entries, customer, balance);
      immediate = quoted.order;
      balance = quoted.balanceAfter;
      entries = [];
    }
  } else if (!('discount_id' in input)) {
    after = row;
    const product = (await findProductRowsByIds(ctx.db, [row.product_id])).get(row.product_id);
    productName = product?.name ?? 'Subscription';
    snapshot = (await findSubscriptionPrices(ctx.db, [row.id])).get(row.id) ?? [];
    [discount] = row.discount_id ? await findDiscountsByIds(ctx.db, [row.discount_id]) : [];
  } else {
    const loaded = await loadDiscountChange(ctx, row, input.discount_id);
    after = { ...row, ...loaded.changes };
    const product = (await findProductRowsByIds(ctx.db, [row.product_id])).get(row.product_id);
    productName = product?.name ?? 'Subscription';
    snapshot = loaded.snapshot;
    discount = loaded.discount;
  }

  // A subscription ending at the period's end has no renewal.
  let nextRenewal: SubscriptionPreviewWire['next_renewal'] = null;
  if (after.current_period_end && !after.cancel_at_period_end) {
    const renewal = plannedRenewal({
      productName,
      snapshot,
      recurring_interval: after.recurring_interval,
      anchor_day: after.anchor_day,
      periodEnd: after.current_period_end,
      discount: discount ?? null,
      appliedAt: discountAppliedAt(after),
    });
    const bill: BillSubscriptionInput = {
      reason: 'subscription_cycle',
      cycle: renewal.cycle,
      discount: renewal.pays,
      periodStart: renewal.start,
    };
    const quoted = await quote(ctx, after, bill, entries, customer, balance);
    nextRenewal = { ...quoted.order, renews_at: iso(renewal.start) };
  }
  return {
    product_id: after.product_id,
    discount_id: after.discount_id,
    recurring_interval: after.recurring_interval,
    amount: after.amount,
    currency: after.currency,
    current_period_end: iso(after.current_period_end),
    immediate,
    next_renewal: nextRenewal,
  };
}

async function quote(
  ctx: Context,
  row: SubscriptionRow,
  bill: BillSubscriptionInput,
  entries: readonly EntryLine[],
  customer: Awaited<ReturnType<typeof findBillingCustomer>>,
  balance: number,
): Promise<{ order: PreviewOrder; balanceAfter: number }> {
  const { priced, tax, items, subtotal, total, credited } = await quoteSubscriptionOrder(
    ctx,
    row,
    bill,
    entries,
    customer,
  );
  const { applied, due } = settleWithBalance(total, balance);
  return {
    order: {
      billing_reason: bill.reason,
      currency: row.currency,
      items: items.map((item: CycleLine & { tax_amount: number; proration: boolean }) => ({
        label: item.label,
        amount: item.amount,
        tax_amount: item.tax_amount,
        proration: item.proration,
        product_price_id: item.product_price_id,
      })),
      subtotal_amount: subtotal,
      discount_amount: priced.discount,
      tax_amount: tax.amount,
      total_amount: total,
      applied_balance_amount: applied,
      due_amount: due,
    },
    balanceAfter: balance - applied + credited,
  };
}

/** The seller's preview of a change to one of its subscriptions. */
export async function previewSubscriptionUpdate(
  ctx: Context,
  id: string,
  input: SubscriptionPreviewInput,
): Promise<SubscriptionPreviewWire> {
  const row = await findVisibleSubscription(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return previewSubscriptionChange(ctx, row, input);
}
