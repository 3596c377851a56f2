import type { Context } from '../../../platform/context.js';
import { ResourceNotFound } from '../../../platform/http/errors.js';
import { pageOf } from '../../../platform/http/query.js';
import {
  findCustomersByIds,
  findItemsOfOrders,
  findProductRowsByIds,
  type OrderRow,
} from '../../orders/orders.repository.js';
import { findSubscriptionsByIds } from '../../subscriptions/subscriptions.repository.js';
import { loadProductsWithOrganization } from '../customer-portal.service.js';
import { invoiceUrl, requestInvoice } from '../../orders/orders.invoice.js';
import { receiptUrl } from '../../orders/orders.receipt.js';
import type { OrderUpdateInput } from '../../orders/orders.schemas.js';
import { updateBillingDetails } from '../../orders/orders.service.js';
import { findOwnedOrder, listOwnedOrders, lockOwnedOrder } from './orders.repository.js';
import type { CustomerOrderListParams } from './orders.schemas.js';
import { serializeCustomerOrder, type CustomerOrderWire } from './orders.serializer.js';

/** Serializes a page of orders, loading each kind of relation once. */
async function serializeCustomerOrders(ctx: Context, rows: OrderRow[]): Promise<CustomerOrderWire[]> {
  if (rows.length === 0) return [];
  const productIds = [...new Set(rows.map((row) => row.product_id))];
  const subscriptionIds = [...new Set(rows.flatMap((row) => (row.subscription_id ? [row.subscription_id] : [])))];
  const [items, customers, productRows, subscriptions] = await Promise.all([
    findItemsOfOrders(
      ctx.db,
      rows.map((row) => row.id),
    ),
    findCustomersByIds(
      ctx.db,
      rows.map((row) => row.customer_id),
    ),
    findProductRowsByIds(ctx.db, productIds),
    findSubscriptionsByIds(ctx.db, subscriptionIds),
  ]);
  const products = await loadProductsWithOrganization(ctx.db, [...productRows.values()]);
  const subscriptionById = new Map(subscriptions.map((row) => [row.id, row]));
  return rows.map((order) =>
    serializeCustomerOrder({
      order,
      items: items.get(order.id) ?? [],
      customer: customers.get(order.customer_id)!,
      productRow: productRows.get(order.product_id)!,
      product: products.get(order.product_id)!,
      subscription: order.subscription_id ? (subscriptionById.get(order.subscription_id) ?? null) : null,
    }),
  );
}

export async function listCustomerOrders(ctx: Context, params: CustomerOrderListParams) {
  const { rows, total } = await listOwnedOrders(ctx.db, ctx.subject, params);
  return pageOf(await serializeCustomerOrders(ctx, rows), total, params);
}

export async function getCustomerOrder(ctx: Context, id: string): Promise<CustomerOrderWire> {
  const row = await findOwnedOrder(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return (await serializeCustomerOrders(ctx, [row]))[0]!;
}

/** The billing name and address of one of the customer's orders, under the seller's rules. */
export async function updateCustomerOrder(
  ctx: Context,
  id: string,
  input: OrderUpdateInput,
): Promise<CustomerOrderWire> {
  const row = await lockOwnedOrder(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  await updateBillingDetails(ctx, row, input);
  return getCustomerOrder(ctx, id);
}

export async function requestCustomerOrderInvoice(ctx: Context, id: string): Promise<Record<string, never>> {
  const row = await lockOwnedOrder(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return requestInvoice(ctx, row);
}

export async function getCustomerOrderInvoice(ctx: Context, id: string): Promise<{ url: string }> {
  const row = await findOwnedOrder(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return invoiceUrl(ctx, row);
}

/** The receipt of one of the customer's orders: its link, or null while it is rendered (202). */
export async function getCustomerOrderReceipt(ctx: Context, id: string): Promise<{ url: string } | null> {
  const row = await findOwnedOrder(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return receiptUrl(ctx, row);
}
