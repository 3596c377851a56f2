import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { acceptsCsv, CSV_BATCH, csvCell, csvStream, type ExportCursor } from '../../platform/http/csv.js';
import {
  SUBSCRIPTION_EXPORT_HEADER,
  subscriptionExportCells,
  type SubscriptionExportRow,
} from './subscriptions.export.js';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import { recordSubscriptionChange } from './subscriptions.history.js';
import { BadRequest, ResourceNotFound, validationError } from '../../platform/http/errors.js';
import { iso } from '../../platform/http/schemas.js';
import { organizationPortalUrls } from '../../platform/mail/event-emails.js';
import { queueEmail } from '../../platform/mail/outbox.js';
import { pageOf } from '../../platform/http/query.js';
import { subscriptionAmount } from '../billing/billing.money.js';
import { billSubscription, restoreAppliedBalance } from '../billing/billing.orders.js';
import { closeMeteredUsage, subscriptionMeters } from '../billing/billing.usage.js';
import { findOrganizationsByIds } from '../checkouts/checkouts.repository.js';
import { isApplicable, isRedeemable } from '../checkouts/checkouts.rules.js';
import { serializeCustomerState } from '../customers/customers.serializer.js';
import { findDiscountsByIds, insertRedemption, type DiscountRow } from '../discounts/discounts.repository.js';
import { findCustomersByIds, findOrderById, findProductRowsByIds } from '../orders/orders.repository.js';
import { findPricesOfProducts } from '../products/products.repository.js';
import { recordAmountChange } from '../metrics/metrics.mrr.js';
import { loadProductBundles } from '../products/products.service.js';
import type { ProductBundle } from '../products/products.serializer.js';
import { duringTrial, trialEndOf } from './subscriptions.trials.js';
import { AlreadyCanceledSubscription, ResourceUnavailable } from './subscriptions.errors.js';
import { planProductChange, shortDate, type PlanChange, type PriceSnapshot } from './subscriptions.plan-change.js';
import {
  BILLABLE_STATUSES,
  exportVisibleSubscriptions,
  exportVisibleSubscriptionsAfter,
  findSubscriptionPrices,
  findVisibleSubscription,
  insertBillingEntries,
  listVisibleSubscriptions,
  lockVisibleSubscription,
  replaceSubscriptionPrices,
  detachPendingEntryPrices,
  updateSubscriptionRow,
  failPendingCharges,
  type SubscriptionChanges,
  type SubscriptionRow,
} from './subscriptions.repository.js';
import type {
  SubscriptionExportParams,
  SubscriptionListParams,
  SubscriptionUpdateInput,
} from './subscriptions.schemas.js';
import { serializeSubscription, type SubscriptionWire } from './subscriptions.serializer.js';
import {
  cycleGrantsForSubscription,
  enqueueGrantsForSubscription,
  enqueueRevocationsForSubscription,
} from '../benefit-grants/benefit-grants.service.js';

/** Serializes subscriptions with everything they embed, each relation loaded once for the page. */
export async function serializeSubscriptions(
  ctx: Context,
  rows: SubscriptionRow[],
  known: { customers?: Awaited<ReturnType<typeof findCustomersByIds>> } = {},
): Promise<SubscriptionWire[]> {
  if (rows.length === 0) return [];
  const [customers, productRows, discounts, snapshots, meters] = await Promise.all([
    known.customers ??
      findCustomersByIds(
        ctx.db,
        rows.map((row) => row.customer_id),
      ),
    findProductRowsByIds(
      ctx.db,
      rows.map((row) => row.product_id),
    ),
    findDiscountsByIds(ctx.db, [...new Set(rows.flatMap((row) => (row.discount_id ? [row.discount_id] : [])))]),
    findSubscriptionPrices(
      ctx.db,
      rows.map((row) => row.id),
    ),
    subscriptionMeters(ctx, rows),
  ]);
  // Snapshot prices may be archived (or belong to a former product): all prices of those products,
  // which the bundles show the visible ones of.
  const allPrices = await findPricesOfProducts(ctx.db, [...productRows.keys()]);
  const bundles = await loadProductBundles(ctx.db, [...productRows.values()], allPrices);
  const bundleById = new Map(bundles.map((bundle) => [bundle.product.id, bundle]));
  const priceById = new Map([...allPrices.values()].flat().map((price) => [price.id, price]));
  const discountById = new Map(discounts.map((discount) => [discount.id, discount]));
  return rows.map((row) =>
    serializeSubscription({
      row,
      customer: customers.get(row.customer_id)!,
      product: bundleById.get(row.product_id)!,
      discount: row.discount_id ? (discountById.get(row.discount_id) ?? null) : null,
      prices: (snapshots.get(row.id) ?? []).flatMap((snapshot) => {
        const price = priceById.get(snapshot.product_price_id);
        return price ? [price] : [];
      }),
      meters: meters.get(row.id) ?? [],
    }),
  );
}

export async function serializeOneSubscription(ctx: Context, row: SubscriptionRow): Promise<SubscriptionWire> {
  return (await serializeSubscriptions(ctx, [row]))[0]!;
}

export async function listSubscriptions(ctx: Context, params: SubscriptionListParams) {
  const { rows, total } = await listVisibleSubscriptions(ctx.db, ctx.subject, params);
  return pageOf(await serializeSubscriptions(ctx, rows), total, params);
}

export async function getSubscription(ctx: Context, id: string): Promise<SubscriptionWire> {
  const row = await findVisibleSubscription(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return serializeOneSubscription(ctx, row);
}

/** Minor units as a decimal string (amount / 100), without floats. */
function decimal(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  const abs = Math.abs(amount);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/**
 * `GET /v1/subscriptions/export`. Asked for `text/csv` (SDK 0.49): the reference's 2026 columns,
 * streamed as read, a batch per statement. Otherwise (SDK 0.33.2 asks for JSON and parses the body
 * as JSON): the older reference's CSV (Email, Created At, Active, Product, Price, Currency, Interval)
 * delivered as a JSON string, as before.
 */
export async function exportSubscriptions(ctx: Context, params: SubscriptionExportParams): Promise<string | Readable> {
  if (acceptsCsv(ctx.request?.accept)) {
    return csvStream<SubscriptionExportRow & ExportCursor>(
      SUBSCRIPTION_EXPORT_HEADER,
      (after) => exportVisibleSubscriptionsAfter(ctx.db, ctx.subject, params, after, CSV_BATCH),
      subscriptionExportCells,
    );
  }
  const rows = await exportVisibleSubscriptions(ctx.db, ctx.subject, params);
  const lines = [['Email', 'Created At', 'Active', 'Product', 'Price', 'Currency', 'Interval']];
  for (const row of rows) {
    lines.push([
      row.customer_email,
      iso(row.created_at),
      String(row.status === 'active' || row.status === 'trialing'),
      row.product_name,
      decimal(row.amount),
      row.currency,
      row.recurring_interval,
    ]);
  }
  return lines.map((line) => line.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

type SubscriptionEvent =
  | 'subscription.updated'
  | 'subscription.active'
  | 'subscription.canceled'
  | 'subscription.uncanceled'
  | 'subscription.revoked'
  | 'subscription.past_due'
  | 'subscription.cycled';

/** Records `subscription.updated` then the given events, and `customer.state_changed`. */
export async function recordSubscriptionEvents(
  ctx: Context,
  row: SubscriptionRow,
  extra: SubscriptionEvent[] = [],
): Promise<SubscriptionWire> {
  const customers = await findCustomersByIds(ctx.db, [row.customer_id]);
  const wire = (await serializeSubscriptions(ctx, [row], { customers }))[0]!;
  for (const type of ['subscription.updated' as const, ...extra]) {
    await recordWebhookEvent(ctx, row.organization_id, type, wire);
  }
  const customer = customers.get(row.customer_id);
  if (customer)
    await recordWebhookEvent(ctx, row.organization_id, 'customer.state_changed', serializeCustomerState(customer));
  return wire;
}

/**
 * Where benefits are revoked when a subscription ends (the benefit grants module plugs in here).
 * Called in the ending transaction.
 */
export async function onSubscriptionBenefitsRevoked(ctx: Context, row: SubscriptionRow): Promise<void> {
  await enqueueRevocationsForSubscription(ctx, row.id);
}

/** Where benefits are granted again when a past-due subscription is paid (benefit grants module). */
export async function onSubscriptionBenefitsRestored(ctx: Context, row: SubscriptionRow): Promise<void> {
  await enqueueGrantsForSubscription(ctx, row.id);
}

/** Where benefit grants cycle after a paid renewal (benefit grants module). */
export async function onSubscriptionCycled(ctx: Context, row: SubscriptionRow): Promise<void> {
  await cycleGrantsForSubscription(ctx, row.id, row.current_period_start);
}

export type PaymentEmail =
  | {
      template: 'payment_failed';
      amount: number;
      currency: string;
      declineMessage: string | null;
      nextAttemptAt: Date | null;
    }
  | { template: 'payment_recovered' };

/**
 * The dunning's emails to the subscription's customer (no webhook event marks a failed or recovered
 * renewal payment, so the renewal engine asks for them here): queued in the caller's transaction.
 */
export async function emailPaymentOutcome(ctx: Context, row: SubscriptionRow, email: PaymentEmail): Promise<void> {
  const [customer] = (await findCustomersByIds(ctx.db, [row.customer_id])).values();
  if (!customer) return;
  const [product] = (await findProductRowsByIds(ctx.db, [row.product_id])).values();
  const urls = await organizationPortalUrls(ctx, row.organization_id);
  if (!urls) return;
  const common = { customerName: customer.name, productName: product?.name ?? 'your subscription' };
  if (email.template === 'payment_failed') {
    await queueEmail(ctx, {
      organizationId: row.organization_id,
      to: customer.email,
      template: 'payment_failed',
      data: {
        ...common,
        amount: email.amount,
        currency: email.currency,
        declineMessage: email.declineMessage,
        nextAttemptAt: email.nextAttemptAt,
        updatePaymentUrl: urls.paymentMethods,
      },
    });
    return;
  }
  await queueEmail(ctx, {
    organizationId: row.organization_id,
    to: customer.email,
    template: 'payment_recovered',
    data: { ...common, subscriptionUrl: urls.subscription(row.id) },
  });
}

/** Why a subscription ended, kept in its history. */
export type EndCause = 'revoked' | 'period_end' | 'trial_unpaid' | 'payment_failed' | 'customer_deleted';

/**
 * Ends the subscription now: canceled, ended; benefits revoked; updated (+canceled) + revoked. Proration
 * not billed yet is settled in a final order: `subscription_cycle` at the end of a period (the
 * reference reports its internal `subscription_cancel` so), `subscription_update` for a revoke.
 */
export async function endSubscription(
  ctx: Context,
  row: SubscriptionRow,
  changes: SubscriptionChanges = {},
  finalReason: 'subscription_cycle' | 'subscription_update' = 'subscription_update',
  cause: EndCause = 'revoked',
): Promise<SubscriptionWire> {
  const now = ctx.clock.now();
  const wasCanceled = row.canceled_at !== null;
  const ended = await updateSubscriptionRow(ctx.db, row.id, {
    status: 'canceled',
    cancel_at_period_end: false,
    canceled_at: row.canceled_at ?? now,
    ends_at: row.ends_at ?? now,
    ended_at: now,
    past_due_at: null,
    modified_at: now,
    ...changes,
  });
  for (const orderId of await failPendingCharges(ctx.db, row.id, now)) {
    const order = await findOrderById(ctx.db, orderId);
    if (order) await restoreAppliedBalance(ctx, order);
  }
  // Nothing pending is lost: proration entries not billed yet, and the usage of the last period (its
  // meters' windows closed here), are settled in a final order.
  // Usage during a trial is free (docs/trials.md).
  const closed = await closeMeteredUsage(ctx, ended, 'nothing');
  const metered = row.status === 'trialing' ? [] : closed;
  await billSubscription(ctx, ended, {
    reason: finalReason,
    cycle: metered.map(({ label, amount, product_price_id }) => ({ label, amount, product_price_id })),
    discount: null,
    periodStart: now,
  });
  await onSubscriptionBenefitsRevoked(ctx, ended);
  await recordSubscriptionChange(
    ctx,
    ended,
    cause === 'revoked' || cause === 'customer_deleted' ? 'revoked' : 'ended',
    {
      cause,
      reason: ended.customer_cancellation_reason,
      comment: ended.customer_cancellation_comment,
    },
  );
  return recordSubscriptionEvents(ctx, ended, [
    ...(wasCanceled ? [] : ['subscription.canceled' as const]),
    'subscription.revoked',
  ]);
}

function isBillable(row: SubscriptionRow): boolean {
  return (BILLABLE_STATUSES as readonly string[]).includes(row.status);
}

export async function updateSubscription(
  ctx: Context,
  id: string,
  input: SubscriptionUpdateInput,
): Promise<SubscriptionWire> {
  const row = await lockVisibleSubscription(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return applySubscriptionUpdate(ctx, row, input);
}

/**
 * Applies one update variant to a subscription the caller has already found and locked: the seller
 * calls above and the customer portal (which finds subscriptions by their customer) share the rules.
 */
export async function applySubscriptionUpdate(
  ctx: Context,
  row: SubscriptionRow,
  input: SubscriptionUpdateInput,
): Promise<SubscriptionWire> {
  if ('product_id' in input) return changeProduct(ctx, row, input.product_id, input.proration_behavior ?? null);
  if ('discount_id' in input) return changeDiscount(ctx, row, input.discount_id);
  const reason = input.customer_cancellation_reason;
  const comment = input.customer_cancellation_comment;
  if ('cancel_at_period_end' in input) {
    return input.cancel_at_period_end ? cancel(ctx, row, reason, comment) : uncancel(ctx, row);
  }
  return revoke(ctx, row, reason, comment);
}

export async function revokeSubscription(ctx: Context, id: string): Promise<SubscriptionWire> {
  const row = await lockVisibleSubscription(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return revoke(ctx, row, undefined, undefined);
}

function cancellationChanges(reason: string | null | undefined, comment: string | null | undefined) {
  const changes: SubscriptionChanges = {};
  if (reason !== undefined) changes.customer_cancellation_reason = reason;
  if (comment !== undefined) changes.customer_cancellation_comment = comment;
  return changes;
}

async function cancel(
  ctx: Context,
  row: SubscriptionRow,
  reason: string | null | undefined,
  comment: string | null | undefined,
): Promise<SubscriptionWire> {
  if (!isBillable(row) || row.ended_at || row.cancel_at_period_end || row.ends_at)
    throw new AlreadyCanceledSubscription();
  const now = ctx.clock.now();
  const updated = await updateSubscriptionRow(ctx.db, row.id, {
    cancel_at_period_end: true,
    canceled_at: now,
    ends_at: row.current_period_end,
    modified_at: now,
    ...cancellationChanges(reason, comment),
  });
  await recordSubscriptionChange(ctx, updated, 'canceled', {
    at_period_end: true,
    ends_at: updated.ends_at?.toISOString() ?? null,
    reason: updated.customer_cancellation_reason,
    comment: updated.customer_cancellation_comment,
  });
  return recordSubscriptionEvents(ctx, updated, row.canceled_at ? [] : ['subscription.canceled']);
}

async function uncancel(ctx: Context, row: SubscriptionRow): Promise<SubscriptionWire> {
  if (row.ended_at) throw new ResourceUnavailable();
  if (!((row.status === 'active' || row.status === 'trialing') && row.cancel_at_period_end)) throw new BadRequest();
  const updated = await updateSubscriptionRow(ctx.db, row.id, {
    cancel_at_period_end: false,
    ends_at: null,
    canceled_at: null,
    customer_cancellation_reason: null,
    customer_cancellation_comment: null,
    modified_at: ctx.clock.now(),
  });
  await recordSubscriptionChange(ctx, updated, 'uncanceled');
  return recordSubscriptionEvents(ctx, updated, ['subscription.uncanceled']);
}

async function revoke(
  ctx: Context,
  row: SubscriptionRow,
  reason: string | null | undefined,
  comment: string | null | undefined,
): Promise<SubscriptionWire> {
  if (!isBillable(row) || row.ended_at) throw new AlreadyCanceledSubscription();
  return endSubscription(ctx, row, cancellationChanges(reason, comment));
}

const PAST_DUE_REFUSED =
  'The subscription is past due: its last payment must go through before its product can change.';

const DISCOUNT_REFUSED = 'Discount does not exist, is not applicable to this product or is not redeemable.';

async function productBundle(ctx: Context, productId: string): Promise<ProductBundle | undefined> {
  const product = (await findProductRowsByIds(ctx.db, [productId])).get(productId);
  return product ? (await loadProductBundles(ctx.db, [product]))[0] : undefined;
}

/** Validates a discount change and the columns it sets, writing nothing (the change and its preview). */
export async function loadDiscountChange(ctx: Context, row: SubscriptionRow, discountId: string | null) {
  const snapshot = (await findSubscriptionPrices(ctx.db, [row.id])).get(row.id) ?? [];
  let discount: DiscountRow | null = null;
  if (discountId !== null) {
    if (discountId === row.discount_id)
      throw validationError(['body', 'discount_id'], 'This discount is already applied to the subscription.');
    const [found] = await findDiscountsByIds(ctx.db, [discountId]);
    const bundle = await productBundle(ctx, row.product_id);
    if (
      !found ||
      !bundle ||
      found.organization_id !== row.organization_id ||
      !isRedeemable(found, ctx.clock.now()) ||
      !(await isApplicable(ctx, found, bundle, row.currency))
    )
      throw validationError(['body', 'discount_id'], DISCOUNT_REFUSED);
    discount = found;
  }
  const changes = {
    discount_id: discount?.id ?? null,
    discount_applied_at: discount ? (row.current_period_end ?? ctx.clock.now()) : null,
    amount: subscriptionAmount(snapshot, discount),
    modified_at: ctx.clock.now(),
  };
  return { discount, changes, snapshot };
}

/**
 * Sets or clears the discount (research §3.9). A discount set on a running subscription pays from the
 * next period on (no proration): its duration counts from there, so `once` pays for the next renewal
 * and `repeating` N months for the N periods that follow.
 */
async function changeDiscount(ctx: Context, row: SubscriptionRow, discountId: string | null) {
  const { discount, changes } = await loadDiscountChange(ctx, row, discountId);
  if (discount) {
    await insertRedemption(ctx.db, {
      id: randomUUID(),
      created_at: ctx.clock.now(),
      discount_id: discount.id,
      subscription_id: row.id,
    });
  }
  const updated = await updateSubscriptionRow(ctx.db, row.id, changes);
  await recordAmountChange(ctx.db, row, updated, ctx.clock.now());
  await recordSubscriptionChange(ctx, updated, 'discount_changed', {
    previous_discount_id: row.discount_id,
    discount_id: updated.discount_id,
  });
  return recordSubscriptionEvents(ctx, updated);
}

/** The static prices of a product as a snapshot: fixed at their amount, free and metered at 0. */
function snapshotOf(bundle: ProductBundle) {
  return bundle.prices.map((price) => ({
    product_price_id: price.id,
    amount: price.amount_type === 'fixed' ? (price.price_amount ?? 0) : 0,
  }));
}

/** When the subscription's discount started paying (subscriptions from before it was recorded: the start). */
export function discountAppliedAt(row: SubscriptionRow): Date {
  return row.discount_applied_at ?? row.started_at ?? row.current_period_start;
}

/** A product change ready to apply: validated, with its money planned (`subscriptions.plan-change.ts`). */
export interface LoadedPlanChange {
  plan: PlanChange;
  bundle: ProductBundle;
  newSnapshot: PriceSnapshot[];
  keepDiscount: DiscountRow | null;
  proration: 'invoice' | 'prorate';
}

/**
 * Validates a product change and plans it (research §3.8), writing nothing: the update below and its
 * preview (`subscriptions.preview.ts`) share it. Benefits follow the new product.
 */
export async function loadPlanChange(
  ctx: Context,
  row: SubscriptionRow,
  productId: string,
  behavior: 'invoice' | 'prorate' | null,
): Promise<LoadedPlanChange> {
  if (!isBillable(row) || row.ended_at || row.cancel_at_period_end) throw new AlreadyCanceledSubscription();
  const loc = ['body', 'product_id'];
  // A past-due period was not paid: no credit for its unused time, nor a new plan, until it is (as a
  // card updated retries at once, docs/payment-methods.md). Stripe credits such time and leaves the
  // unpaid invoice open; when dunning gave up, the credit outlived the debt.
  if (row.status === 'past_due') throw validationError(loc, PAST_DUE_REFUSED);
  const bundle = await productBundle(ctx, productId);
  if (!bundle || bundle.product.organization_id !== row.organization_id)
    throw validationError(loc, 'Product does not exist.');
  if (bundle.product.is_archived) throw validationError(loc, 'Product is archived.');
  const interval = bundle.product.recurring_interval;
  if (!interval) throw validationError(loc, 'Product is not recurring.');
  if (bundle.prices.some((price) => price.amount_type === 'custom'))
    throw validationError(loc, "Can't update to a product with custom prices.");

  const [organization] = await findOrganizationsByIds(ctx.db, [row.organization_id]);
  const settings = (organization?.subscription_settings ?? {}) as { proration_behavior?: 'invoice' | 'prorate' };
  const proration = behavior ?? settings.proration_behavior ?? 'prorate';

  const [discount] = row.discount_id ? await findDiscountsByIds(ctx.db, [row.discount_id]) : [];
  const oldSnapshot = (await findSubscriptionPrices(ctx.db, [row.id])).get(row.id) ?? [];
  const [oldProduct] = (await findProductRowsByIds(ctx.db, [row.product_id])).values();
  const keepDiscount = discount && (await isApplicable(ctx, discount, bundle, row.currency)) ? discount : null;
  const newSnapshot = snapshotOf(bundle);
  const plan = planProductChange({
    now: ctx.clock.now(),
    subscription: row,
    oldProductName: oldProduct?.name ?? 'product',
    oldSnapshot,
    newProduct: { id: bundle.product.id, name: bundle.product.name, recurring_interval: interval },
    newSnapshot,
    discount: discount ?? null,
    keepDiscount,
    appliedAt: discountAppliedAt(row),
    proration,
  });
  return { plan, bundle, newSnapshot, keepDiscount, proration };
}

async function changeProduct(
  ctx: Context,
  row: SubscriptionRow,
  productId: string,
  behavior: 'invoice' | 'prorate' | null,
): Promise<SubscriptionWire> {
  const loaded = await loadPlanChange(ctx, row, productId, behavior);
  const { newSnapshot } = loaded;
  // During a trial the trial continues on the new plan: nothing prorated or billed (docs/trials.md).
  const trialing = row.status === 'trialing';
  const plan = trialing ? duringTrial(loaded.plan, trialEndOf(row)) : loaded.plan;
  const now = ctx.clock.now();
  const entries = [...plan.entries];
  // Usage so far is the old plan's: its metered prices' windows close now (unused credits carried on)
  // and their lines wait for the next order, like the proration entries (docs/usage.md, "Billing").
  // Like the old plan's credits, they name no price: an order's items are prices of its own product.
  const usage = await closeMeteredUsage(ctx, row, 'unused');
  if (!trialing)
    for (const line of usage) entries.push({ label: line.label, amount: line.amount, product_price_id: null });
  await replaceSubscriptionPrices(ctx.db, row.id, newSnapshot);
  await detachPendingEntryPrices(ctx.db, row.id);
  const updated = await updateSubscriptionRow(ctx.db, row.id, plan.changes);
  // A trial's amount is not revenue yet: its first paid period counts as new MRR.
  if (!trialing) await recordAmountChange(ctx.db, row, updated, now);
  await insertBillingEntries(
    ctx.db,
    entries.map((entry) => ({ id: randomUUID(), created_at: now, subscription_id: row.id, ...entry })),
  );
  if (plan.bill) await billSubscription(ctx, updated, { reason: 'subscription_update', ...plan.bill });
  // Benefits only the old product gave are revoked, the new product's granted (research §3.8).
  await enqueueGrantsForSubscription(ctx, row.id);
  await recordSubscriptionChange(ctx, updated, 'product_changed', {
    previous_product_id: row.product_id,
    product_id: updated.product_id,
    previous_amount: row.amount,
    amount: updated.amount,
    currency: updated.currency,
    previous_interval: row.recurring_interval,
    recurring_interval: updated.recurring_interval,
    proration_behavior: loaded.proration,
    during_trial: trialing,
  });
  return recordSubscriptionEvents(ctx, updated);
}

export { shortDate };
