import { randomUUID } from 'node:crypto';
import type { OrderBillingReason } from '../../db/tables/orders.js';
import type { CustomerRow } from '../customers/customers.repository.js';
import type { ProductRow } from '../products/products.repository.js';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import type { AddressValue } from '../../platform/http/countries.js';
import { IssueCollector, ResourceNotFound } from '../../platform/http/errors.js';
import type { Metadata } from '../../platform/http/metadata.js';
import { pageOf } from '../../platform/http/query.js';
import { findDiscountsByIds } from '../discounts/discounts.repository.js';
import { findSubscriptionsByIds } from '../subscriptions/subscriptions.repository.js';
import { OrderInvariantError } from './orders.errors.js';
import { invoiceNumberForNewOrder } from './orders.numbering.js';
import { orderStatusAfterRefunds } from '../refunds/refunds.money.js';
import {
  exportVisibleOrders,
  findCustomersByIds,
  findItemsOfOrders,
  findOrderById,
  findPriceIdsOfProduct,
  findProductRowsByIds,
  findVisibleOrder,
  insertOrder,
  insertOrderItems,
  listVisibleOrders,
  lockOrderById,
  lockVisibleOrder,
  updateOrderRow,
  updateOrderRowReturning,
  updateOrdersStatus,
  type OrderChanges,
  type OrderRow,
} from './orders.repository.js';
import type { OrderExportParams, OrderListParams, OrderUpdateInput } from './orders.schemas.js';
import { CSV_BATCH, csvStream, type ExportCursor } from '../../platform/http/csv.js';
import { ORDER_EXPORT_HEADER, orderExportCells, type OrderExportRow } from './orders.export.js';
import type { TaxDetails } from '../../platform/tax.js';
import {
  serializeOrder,
  serializeOrderSubscription,
  type OrderSubscriptionWire,
  type OrderWire,
} from './orders.serializer.js';
import { onOrderPaidRecordStripeTax } from '../tax-settings/tax-settings.stripe-transactions.js';

/** Embedded subscriptions by order id, supplied by callers that have them (the subscriptions module). */
export type SubscriptionsByOrder = ReadonlyMap<string, OrderSubscriptionWire | null>;

/** Serializes orders with everything they embed, loading each kind of relation once for the page. */
/** What a caller already holds of the orders' parts (each saves its read). */
interface KnownOrderParts {
  items?: Awaited<ReturnType<typeof findItemsOfOrders>>;
  customers?: Awaited<ReturnType<typeof findCustomersByIds>>;
  products?: Awaited<ReturnType<typeof findProductRowsByIds>>;
}

export async function serializeOrders(
  ctx: Context,
  rows: OrderRow[],
  subscriptions: SubscriptionsByOrder = new Map(),
  known: KnownOrderParts = {},
): Promise<OrderWire[]> {
  const ids = rows.map((row) => row.id);
  const subscriptionIds = [
    ...new Set(rows.flatMap((row) => (row.subscription_id && !subscriptions.has(row.id) ? [row.subscription_id] : []))),
  ];
  const [items, customers, products, discounts, subscriptionRows] = await Promise.all([
    known.items ?? findItemsOfOrders(ctx.db, ids),
    known.customers ??
      findCustomersByIds(
        ctx.db,
        rows.map((row) => row.customer_id),
      ),
    known.products ??
      findProductRowsByIds(
        ctx.db,
        rows.map((row) => row.product_id),
      ),
    findDiscountsByIds(ctx.db, [...new Set(rows.flatMap((row) => (row.discount_id ? [row.discount_id] : [])))]),
    findSubscriptionsByIds(ctx.db, subscriptionIds),
  ]);
  const subscriptionById = new Map(subscriptionRows.map((row) => [row.id, serializeOrderSubscription(row)]));
  const discountById = new Map(discounts.map((discount) => [discount.id, discount]));
  return rows.map((order) =>
    serializeOrder({
      order,
      items: items.get(order.id) ?? [],
      customer: customers.get(order.customer_id)!,
      product: products.get(order.product_id)!,
      discount: order.discount_id ? (discountById.get(order.discount_id) ?? null) : null,
      subscription:
        subscriptions.get(order.id) ??
        (order.subscription_id ? (subscriptionById.get(order.subscription_id) ?? null) : null),
    }),
  );
}

/**
 * One order. A subscription given by the caller is embedded as is; otherwise (undefined) the order's
 * own subscription is loaded, as the list does.
 */
async function serializeOne(ctx: Context, row: OrderRow, subscription?: OrderSubscriptionWire | null) {
  const given: SubscriptionsByOrder = subscription === undefined ? new Map() : new Map([[row.id, subscription]]);
  return (await serializeOrders(ctx, [row], given))[0]!;
}

/** The order as the API shows it, whoever asks (for flows without a seller subject). */
export async function loadOrder(
  ctx: Context,
  orderId: string,
  subscription?: OrderSubscriptionWire | null,
): Promise<OrderWire> {
  const row = await findOrderById(ctx.db, orderId);
  if (!row) throw new ResourceNotFound();
  return serializeOne(ctx, row, subscription);
}

/**
 * `GET /v1/orders/export`: a CSV streamed as it is read, a batch of orders per statement (no
 * transaction, no connection held between batches).
 */
export function exportOrders(ctx: Context, params: OrderExportParams) {
  return csvStream<OrderExportRow & ExportCursor>(
    ORDER_EXPORT_HEADER,
    (after) => exportVisibleOrders(ctx.db, ctx.subject, params, after, CSV_BATCH),
    orderExportCells,
  );
}

export async function listOrders(ctx: Context, params: OrderListParams) {
  const { rows, total } = await listVisibleOrders(ctx.db, ctx.subject, params);
  return pageOf(await serializeOrders(ctx, rows), total, params);
}

export async function getOrder(ctx: Context, id: string): Promise<OrderWire> {
  const row = await findVisibleOrder(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return serializeOne(ctx, row);
}

const FROZEN_AFTER_INVOICE = 'This field cannot be updated after the invoice is generated.';

export async function updateOrder(ctx: Context, id: string, input: OrderUpdateInput): Promise<OrderWire> {
  const current = await lockVisibleOrder(ctx.db, ctx.subject, id);
  if (!current) throw new ResourceNotFound();
  return updateBillingDetails(ctx, current, input);
}

/**
 * Billing name and address, as printed on the invoice: frozen once the invoice exists. For an order
 * the caller has locked (the seller's update and the customer portal's); records `order.updated`.
 */
export async function updateBillingDetails(
  ctx: Context,
  current: OrderRow,
  input: OrderUpdateInput,
): Promise<OrderWire> {
  const id = current.id;
  const address = input.billing_address ? JSON.stringify(input.billing_address) : null;
  const currentAddress = current.billing_address ? JSON.stringify(normalizeAddress(current.billing_address)) : null;
  const nameChanged = input.billing_name !== current.billing_name;
  const addressChanged = address !== currentAddress;
  if (current.invoice_path !== null) {
    const issues = new IssueCollector();
    if (nameChanged) issues.add(['body', 'billing_name'], FROZEN_AFTER_INVOICE);
    if (addressChanged) issues.add(['body', 'billing_address'], FROZEN_AFTER_INVOICE);
    issues.throwIfAny();
  }
  await updateOrderRow(ctx.db, id, {
    billing_name: input.billing_name,
    billing_address: address,
    modified_at: ctx.clock.now(),
  });
  const updated = await loadOrder(ctx, id);
  await recordWebhookEvent(ctx, current.organization_id, 'order.updated', updated);
  return updated;
}

/** The stored address with its keys in the wire order, so a comparison with the input is exact. */
function normalizeAddress(stored: unknown): AddressValue {
  const value = stored as Partial<AddressValue>;
  return {
    line1: value.line1 ?? null,
    line2: value.line2 ?? null,
    postal_code: value.postal_code ?? null,
    city: value.city ?? null,
    state: value.state ?? null,
    country: value.country as AddressValue['country'],
  };
}

export interface CreateOrderItemInput {
  label: string;
  /** Minor units; proration credits may be negative. */
  amount: number;
  tax_amount: number;
  proration: boolean;
  product_price_id: string | null;
}

/**
 * An order as the checkout (or the renewal engine) has priced it. Amounts are computed by the caller;
 * `createOrder` only checks that they add up.
 */
export interface CreateOrderInput {
  organization_id: string;
  customer_id: string;
  product_id: string;
  product_price_id: string | null;
  discount_id: string | null;
  checkout_id: string | null;
  subscription_id: string | null;
  billing_reason: OrderBillingReason;
  billing_name: string | null;
  billing_address: AddressValue | null;
  currency: string;
  subtotal_amount: number;
  discount_amount: number;
  /** Optional: when given it must equal subtotal − discount. */
  net_amount?: number;
  tax_amount: number;
  /** Optional: when given it must equal net + tax. */
  total_amount?: number;
  /** The calculation behind `tax_amount` (rate, label, jurisdiction, reverse charge; docs/tax.md). */
  tax_details?: TaxDetails | null;
  /** What the customer's credit balance pays of the total (0 unless told); the rest is charged. */
  applied_balance_amount?: number;
  /** `paid` when the money is in (a succeeded charge, or nothing to pay); `pending` when it is to be charged. */
  status: 'paid' | 'pending';
  metadata?: Metadata;
  custom_field_data?: Record<string, unknown>;
  items: CreateOrderItemInput[];
  /** The subscription as the order embeds it, for the webhook payloads (null when none). */
  subscription?: OrderSubscriptionWire | null;
  /** The customer's and product's rows when the caller read them in this transaction (each saves a read). */
  known?: { customer?: CustomerRow; product?: ProductRow };
}

function checkAmounts(input: CreateOrderInput): { net: number; total: number } {
  const amounts: [string, number | undefined][] = [
    ['subtotal_amount', input.subtotal_amount],
    ['discount_amount', input.discount_amount],
    ['net_amount', input.net_amount],
    ['tax_amount', input.tax_amount],
    ['total_amount', input.total_amount],
  ];
  for (const [name, value] of amounts) {
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 0) {
      throw new OrderInvariantError(`${name} must be an integer ≥ 0 in minor units, got ${value}`);
    }
  }
  const net = input.subtotal_amount - input.discount_amount;
  if (net < 0) throw new OrderInvariantError('discount_amount exceeds subtotal_amount');
  if (input.net_amount !== undefined && input.net_amount !== net) {
    throw new OrderInvariantError(`net_amount ${input.net_amount} ≠ subtotal − discount (${net})`);
  }
  const total = net + input.tax_amount;
  if (input.total_amount !== undefined && input.total_amount !== total) {
    throw new OrderInvariantError(`total_amount ${input.total_amount} ≠ net + tax (${total})`);
  }
  const applied = input.applied_balance_amount ?? 0;
  if (!Number.isSafeInteger(applied) || applied < 0 || applied > total) {
    throw new OrderInvariantError(
      `applied_balance_amount ${applied} must be an integer from 0 to the total (${total})`,
    );
  }
  input.items.forEach((item, index) => {
    if (!Number.isSafeInteger(item.amount) || !Number.isSafeInteger(item.tax_amount)) {
      throw new OrderInvariantError(`items[${index}] amounts must be integers in minor units`);
    }
  });
  if (!/^[a-z]{3}$/.test(input.currency)) throw new OrderInvariantError(`currency ${input.currency} is not ISO 4217`);
  return { net, total };
}

/**
 * Creates an order in the caller's transaction: checks the amounts add up, writes the order and its
 * items, and records `order.created` (and, when paid, `order.paid`). The order takes the next invoice
 * number of its organization as the transaction commits (orders.numbering.ts; the wire object has no
 * invoice number). Works without a seller subject (checkout confirm is anonymous).
 */
export async function createOrder(ctx: Context, input: CreateOrderInput): Promise<OrderWire> {
  const { net, total } = checkAmounts(input);
  const { customer: knownCustomer, product: knownProduct } = input.known ?? {};
  const [customers, products] = await Promise.all([
    knownCustomer?.id === input.customer_id
      ? new Map([[knownCustomer.id, knownCustomer]])
      : findCustomersByIds(ctx.db, [input.customer_id]),
    knownProduct?.id === input.product_id
      ? new Map([[knownProduct.id, knownProduct]])
      : findProductRowsByIds(ctx.db, [input.product_id]),
  ]);
  const customer = customers.get(input.customer_id);
  const product = products.get(input.product_id);
  if (!customer || customer.organization_id !== input.organization_id) {
    throw new OrderInvariantError(`customer ${input.customer_id} is not a customer of the organization`);
  }
  if (!product || product.organization_id !== input.organization_id) {
    throw new OrderInvariantError(`product ${input.product_id} is not a product of the organization`);
  }
  const priceIds = [
    ...(input.product_price_id ? [input.product_price_id] : []),
    ...input.items.flatMap((item) => (item.product_price_id ? [item.product_price_id] : [])),
  ];
  const known = await findPriceIdsOfProduct(ctx.db, input.product_id, priceIds);
  for (const priceId of priceIds) {
    if (!known.has(priceId)) throw new OrderInvariantError(`price ${priceId} is not a price of the product`);
  }

  // The organization exists: its customer and product do.
  const id = randomUUID();
  const invoiceNumber = await invoiceNumberForNewOrder(ctx.db, { id, organizationId: input.organization_id });
  const now = ctx.clock.now();
  const row = await insertOrder(ctx.db, {
    id,
    created_at: now,
    modified_at: null,
    organization_id: input.organization_id,
    customer_id: input.customer_id,
    product_id: input.product_id,
    product_price_id: input.product_price_id,
    discount_id: input.discount_id,
    subscription_id: input.subscription_id,
    checkout_id: input.checkout_id,
    status: input.status,
    billing_reason: input.billing_reason,
    currency: input.currency,
    subtotal_amount: input.subtotal_amount,
    discount_amount: input.discount_amount,
    net_amount: net,
    tax_amount: input.tax_amount,
    total_amount: total,
    tax_details: input.tax_details ? JSON.stringify(input.tax_details) : null,
    applied_balance_amount: input.applied_balance_amount ?? 0,
    billing_name: input.billing_name,
    billing_address: input.billing_address ? JSON.stringify(input.billing_address) : null,
    invoice_number: invoiceNumber,
    metadata: JSON.stringify(input.metadata ?? {}),
    custom_field_data: JSON.stringify(input.custom_field_data ?? {}),
  });
  const items = await insertOrderItems(
    ctx.db,
    input.items.map((item, position) => ({
      id: randomUUID(),
      created_at: now,
      modified_at: null,
      order_id: id,
      position,
      label: item.label,
      amount: item.amount,
      tax_amount: item.tax_amount,
      proration: item.proration,
      product_price_id: item.product_price_id,
    })),
  );
  // Serialized from the rows as written and the customer and product read above.
  const given: SubscriptionsByOrder =
    input.subscription === undefined ? new Map() : new Map([[id, input.subscription]]);
  const order = (
    await serializeOrders(ctx, [row], given, {
      items: new Map([[id, items.sort((a, b) => a.position - b.position)]]),
      customers,
      products,
    })
  )[0]!;
  await recordWebhookEvent(ctx, input.organization_id, 'order.created', order);
  if (input.status === 'paid') {
    await recordWebhookEvent(ctx, input.organization_id, 'order.paid', order);
    await onOrderPaidRecordStripeTax(ctx, { id, tax_details: input.tax_details });
  }
  return order;
}

/**
 * Marks a pending order paid (a renewal charged later, a retried payment) and records `order.updated`
 * and `order.paid`. An order already paid is returned unchanged, with no event: retries are harmless.
 */
export async function markOrderPaid(
  ctx: Context,
  orderId: string,
  options: { subscription?: OrderSubscriptionWire | null } = {},
): Promise<OrderWire> {
  const current = await lockOrderById(ctx.db, orderId);
  if (!current) throw new ResourceNotFound();
  if (current.status !== 'pending') return loadOrder(ctx, orderId, options.subscription);
  const changes: OrderChanges = { status: 'paid', modified_at: ctx.clock.now() };
  const order = await serializeOne(ctx, await updateOrderRowReturning(ctx.db, orderId, changes), options.subscription);
  await onOrderPaid(ctx, current, order);
  return order;
}

/** What an order marked paid records: `order.updated`, `order.paid`, its Stripe Tax transaction. */
async function onOrderPaid(ctx: Context, current: OrderRow, order: OrderWire): Promise<void> {
  await recordWebhookEvent(ctx, current.organization_id, 'order.updated', order);
  await recordWebhookEvent(ctx, current.organization_id, 'order.paid', order);
  await onOrderPaidRecordStripeTax(ctx, current);
}

/**
 * `markOrderPaid` for orders the caller locked and saw pending (a billing group's paid renewals): one
 * statement marks them all paid, then each records its events as `markOrderPaid` does, in the orders'
 * order. `orders` are the locked rows; `subscriptions` their subscriptions as the wire shows them.
 */
export async function markOrdersPaid(
  ctx: Context,
  orders: readonly OrderRow[],
  subscriptions: SubscriptionsByOrder,
): Promise<void> {
  if (orders.length === 0) return;
  if (orders.some((order) => order.status !== 'pending')) throw new Error('markOrdersPaid: an order is not pending');
  const ids = orders.map((order) => order.id);
  const updated = new Map((await updateOrdersStatus(ctx.db, ids, 'paid', ctx.clock.now())).map((row) => [row.id, row]));
  const rows = ids.map((id) => {
    const row = updated.get(id);
    if (!row) throw new Error('markOrdersPaid: an order was not updated');
    return row;
  });
  const wires = await serializeOrders(ctx, rows, subscriptions);
  for (const [index, current] of orders.entries()) await onOrderPaid(ctx, current, wires[index]!);
}

/**
 * Adds a settled refund to the order's refunded amounts (negative amounts take back a refund that
 * succeeded and later failed), with the status the refunded net gives (`orderStatusAfterRefunds`);
 * records `order.updated`, and `order.refunded` when money went back. For the caller's transaction;
 * the order's row is locked. Amounts outside [0, net] and [0, tax] are a programming error.
 */
export async function recordOrderRefund(
  ctx: Context,
  orderId: string,
  refund: { amount: number; tax_amount: number },
): Promise<OrderWire> {
  const current = await lockOrderById(ctx.db, orderId);
  if (!current) throw new ResourceNotFound();
  const refunded = current.refunded_amount + refund.amount;
  const refundedTax = current.refunded_tax_amount + refund.tax_amount;
  if (refunded < 0 || refunded > current.net_amount || refundedTax < 0 || refundedTax > current.tax_amount) {
    throw new OrderInvariantError(
      `refund of ${refund.amount} + ${refund.tax_amount} tax exceeds the balance of order ${orderId}`,
    );
  }
  await updateOrderRow(ctx.db, orderId, {
    status: orderStatusAfterRefunds(current, refunded),
    refunded_amount: refunded,
    refunded_tax_amount: refundedTax,
    modified_at: ctx.clock.now(),
  });
  const order = await loadOrder(ctx, orderId);
  await recordWebhookEvent(ctx, current.organization_id, 'order.updated', order);
  if (refund.amount > 0 || refund.tax_amount > 0)
    await recordWebhookEvent(ctx, current.organization_id, 'order.refunded', order);
  return order;
}

/**
 * Records that the whole of a paid order went back to the customer (a renewal charged after its
 * subscription ended, a full refund made at the processor): what was left of the net and tax is
 * refunded, through `recordOrderRefund`. An order already refunded is returned unchanged.
 */
export async function markOrderRefunded(ctx: Context, orderId: string): Promise<OrderWire> {
  const current = await lockOrderById(ctx.db, orderId);
  if (!current) throw new ResourceNotFound();
  if (current.status === 'refunded') return loadOrder(ctx, orderId);
  return recordOrderRefund(ctx, orderId, {
    amount: current.net_amount - current.refunded_amount,
    tax_amount: current.tax_amount - current.refunded_tax_amount,
  });
}
