import type { Context } from '../../platform/context.js';
import type { AddressValue } from '../../platform/http/countries.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { taxCalculator, type TaxDetails, type TaxResult } from '../../platform/tax.js';
import type { DiscountRow } from '../discounts/discounts.repository.js';
import type { ProductRow } from '../products/products.repository.js';
import { serializeOrderSubscription } from '../orders/orders.serializer.js';
import { createOrder } from '../orders/orders.service.js';
import {
  attachBillingEntries,
  findPendingBillingEntries,
  insertCharge,
  type SubscriptionRow,
} from '../subscriptions/subscriptions.repository.js';
import { stripeTaxAvailable } from '../../platform/stripe-tax.js';
import { findTaxRules, isProductTaxable } from '../tax-settings/tax-settings.repository.js';
import {
  carryCreditToBalance,
  priceSubscriptionOrder,
  settleWithBalance,
  type CycleLine,
  type EntryLine,
  type PricedOrder,
  type TaxedOrderLine,
} from './billing.money.js';
import { creditTax, taxLines } from './billing.tax.js';
import { lockBillingCustomer, recordBalanceMovement } from './billing.repository.js';
import { stripeTaxAnswer } from './billing.stripe-tax.js';

/**
 * The one place a subscription is billed: pending proration entries and the period's lines → an order
 * with its items, discount, tax and credit balance → a charge for what is left to pay. The renewal
 * cycle, a plan change billed at once, an interval change and the final order of an ending
 * subscription all come here; the money rules are the pure functions of `billing.money.ts`.
 */
export interface BillSubscriptionInput {
  reason: 'subscription_cycle' | 'subscription_update';
  /** The period's static prices, billed at the discount (empty for an order of entries only). */
  cycle: CycleLine[];
  /** The discount that pays for this period, if any. */
  discount: DiscountRow | null;
  /** The start of the period the order pays for (one cycle order per period, ever). */
  periodStart: Date;
  /** The subscription's product row, when the caller read it in this transaction. */
  product?: ProductRow;
}

export interface BilledOrder {
  orderId: string;
  total: number;
  /** What the charge asks of the payment method; 0 when the order was paid without one. */
  due: number;
}

/**
 * Creates the order in the caller's transaction. Every pending entry is carried in full; credit beyond
 * the order goes to the customer's balance, and the balance pays the order first. Returns null when
 * there is nothing to bill (no period lines and no pending entries).
 */
export async function billSubscription(
  ctx: Context,
  row: SubscriptionRow,
  input: BillSubscriptionInput,
): Promise<BilledOrder | null> {
  const entries = await findPendingBillingEntries(ctx.db, row.id);
  if (input.cycle.length === 0 && entries.length === 0) return null;
  // The balance is read and moved under the customer's row lock: two orders never spend it twice.
  const customer = await lockBillingCustomer(ctx.db, row.customer_id);
  const { priced, tax, items, subtotal, total, credited } = await quoteSubscriptionOrder(
    ctx,
    row,
    input,
    entries,
    customer,
  );
  const { applied, due } = settleWithBalance(total, customer?.credit_balances[row.currency] ?? 0);
  const now = ctx.clock.now();
  const order = await createOrder(ctx, {
    organization_id: row.organization_id,
    customer_id: row.customer_id,
    product_id: row.product_id,
    product_price_id: priced.items.find((item) => item.product_price_id)?.product_price_id ?? null,
    discount_id: priced.discount > 0 ? (input.discount?.id ?? null) : null,
    checkout_id: null,
    subscription_id: row.id,
    billing_reason: input.reason,
    billing_name: customer?.name ?? null,
    billing_address: (customer?.billing_address ?? null) as AddressValue | null,
    currency: row.currency,
    subtotal_amount: subtotal,
    discount_amount: priced.discount,
    tax_amount: tax.amount,
    tax_details: tax.details,
    applied_balance_amount: applied,
    status: due > 0 ? 'pending' : 'paid',
    metadata: (row.metadata ?? {}) as Metadata,
    custom_field_data: (row.custom_field_data ?? {}) as Record<string, unknown>,
    items,
    subscription: serializeOrderSubscription(row),
    known: { ...(customer ? { customer } : {}), ...(input.product ? { product: input.product } : {}) },
  });
  await attachBillingEntries(ctx.db, priced.entryIds, order.id);
  const movement = { organization_id: row.organization_id, customer_id: row.customer_id, currency: row.currency };
  await recordBalanceMovement(ctx.db, {
    ...movement,
    amount: credited,
    kind: 'credit',
    order_id: order.id,
    at: now,
  });
  await recordBalanceMovement(ctx.db, { ...movement, amount: -applied, kind: 'applied', order_id: order.id, at: now });
  if (due > 0) {
    await insertCharge(ctx.db, {
      order_id: order.id,
      created_at: now,
      modified_at: null,
      organization_id: row.organization_id,
      subscription_id: row.id,
      period_start: input.periodStart,
      billing_reason: input.reason,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
    });
  }
  return { orderId: order.id, total, due };
}

export interface OrderQuote {
  priced: PricedOrder;
  /** The order's tax (0 for a net credit, whose tax goes to the balance with it) and its details. */
  tax: { amount: number; details: TaxDetails | null };
  items: TaxedOrderLine[];
  subtotal: number;
  total: number;
  /** What goes to the customer's credit balance, tax included. */
  credited: number;
}

/**
 * What an order of the period's lines and `entries` comes to, writing nothing: `billSubscription` and
 * the preview of a plan change (`subscriptions.preview.ts`) price with it. Tax on the order's net over
 * all its lines (period, proration, anything billed here), each line carrying its share; prices that
 * include tax give it up from the lines. A net credit is taxed too, negatively, and goes to the balance
 * with its tax (docs/tax.md).
 */
export async function quoteSubscriptionOrder(
  ctx: Context,
  row: SubscriptionRow,
  input: Pick<BillSubscriptionInput, 'cycle' | 'discount' | 'product'>,
  entries: readonly EntryLine[],
  customer: { billing_address: unknown; tax_id: unknown } | undefined,
): Promise<OrderQuote> {
  const priced = priceSubscriptionOrder(input.cycle, entries, input.discount);
  const tax = priced.net === 0 ? NO_TAX : await renewalTax(ctx, row, customer, priced.net, input.product);
  const settled = carryCreditToBalance(
    taxLines(priced.items, tax.details ?? { tax_amount: tax.amount, inclusive: false }),
    priced.discount,
  );
  const { items, subtotal, total, credited } = settled;
  return { priced, tax: { amount: settled.tax, details: tax.details }, items, subtotal, total, credited };
}

/**
 * An order the balance helped pay was never collected (its charge failed for good or was voided): the
 * balance it used comes back. Once per order.
 */
export async function restoreAppliedBalance(
  ctx: Context,
  order: { id: string; organization_id: string; customer_id: string; currency: string; applied_balance_amount: number },
): Promise<void> {
  if (order.applied_balance_amount <= 0) return;
  await lockBillingCustomer(ctx.db, order.customer_id);
  await recordBalanceMovement(ctx.db, {
    organization_id: order.organization_id,
    customer_id: order.customer_id,
    currency: order.currency,
    amount: order.applied_balance_amount,
    kind: 'restored',
    order_id: order.id,
    at: ctx.clock.now(),
  });
}

const NO_TAX = { amount: 0, details: null };

/**
 * Tax of a subscription order on its net amount, from the customer's billing address and tax id as they
 * are now (as the reference recomputes tax at each cycle), at the organization's rates in force now (a
 * rate changed mid-subscription applies from the next order; orders keep theirs). A renewal cannot ask
 * the buyer to fix an address: a calculator that cannot answer leaves the order untaxed, and the reason
 * is logged for the operator. An organization on Stripe Tax gets Stripe's answer, asked before this
 * transaction by `withStripeTax` (`billing.stripe-tax.ts`); where it could not be asked, its
 * registrations apply and the reason is logged (docs/tax.md).
 */
async function renewalTax(
  ctx: Context,
  row: SubscriptionRow,
  customer: { billing_address: unknown; tax_id: unknown } | undefined,
  net: number,
  product?: Pick<ProductRow, 'id' | 'is_tax_applicable'>,
): Promise<{ amount: number; details: TaxDetails | null }> {
  if (net < 0) {
    // A net credit: the tax the same amount charged would bear, given back.
    const charged = await renewalTax(ctx, row, customer, -net, product);
    return { amount: -charged.amount, details: charged.details && creditTax(charged.details) };
  }
  const address = (customer?.billing_address ?? null) as AddressValue | null;
  const [rules, taxable] = await Promise.all([
    findTaxRules(ctx.db, row.organization_id),
    product?.id === row.product_id ? product.is_tax_applicable : isProductTaxable(ctx.db, row.product_id),
  ]);
  const input = {
    amount: net,
    currency: row.currency,
    country: address?.country ?? null,
    state: address?.state ?? null,
    postalCode: address?.postal_code ?? null,
    taxId: (customer?.tax_id ?? null) as readonly [string, string] | null,
    productId: row.product_id,
    taxable,
    rules,
  };
  let result: TaxResult | null = null;
  if (rules.stripeTaxEnabled && stripeTaxAvailable(ctx.config)) {
    result = await stripeTaxAnswer(ctx, input, rules.pricesIncludeTax);
    if (!result) ctx.log.warn({ subscriptionId: row.id }, 'Stripe Tax not asked: order taxed by the registrations');
  }
  result ??= await taxCalculator().calculate(input);
  if (result.status === 'calculated') return { amount: result.amount, details: result.details ?? null };
  ctx.log.warn({ subscriptionId: row.id, tax: result }, 'renewal order left untaxed');
  return NO_TAX;
}
