import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { ResourceNotFound } from '../../platform/http/errors.js';
import { defineJob, type JobRun } from '../../platform/jobs/queue.js';
import { linkExpiry, objectStorage } from '../../platform/storage/index.js';
import { serverClock } from '../../platform/test-clock.js';
import { findDiscountsByIds } from '../discounts/discounts.repository.js';
import { findSucceededPaymentOfOrder } from '../payments/payments.repository.js';
import type { InvoiceAddress } from './orders.invoice-document.js';
import { receiptDocumentOf, type ReceiptInput } from './orders.receipt-document.js';
import {
  findCustomersByIds,
  findInvoiceSeller,
  findItemsOfOrders,
  findOrderById,
  findVisibleOrder,
  lockOrderById,
  setOrderReceiptPath,
  type OrderRow,
} from './orders.repository.js';
import { isPaidStatus } from './orders.serializer.js';

/**
 * Receipts (the reference's `GET …/orders/{id}/receipt`): the proof of payment of a paid order, a PDF
 * rendered by the `orders.receipt` job with no transaction open and stored. Asking for it answers the
 * signed link of the stored receipt (200), or queues its rendering and answers 202 until it is stored.
 * The key names the order's state the receipt shows (its refunds), so a refund makes the next request
 * render it again; nothing needs to remember to invalidate it. Shared by the seller and the portal.
 */

/** How long a download link stays valid. */
export const RECEIPT_LINK_TTL_SECONDS = 10 * 60;

/** Where the receipt of the order as it is now is stored. */
export function receiptStorageKey(
  order: Pick<OrderRow, 'organization_id' | 'id' | 'refunded_amount' | 'refunded_tax_amount'>,
): string {
  return `receipts/${order.organization_id}/${order.id}/${order.refunded_amount}-${order.refunded_tax_amount}.pdf`;
}

export function receiptFilename(number: string): string {
  return `Receipt-${number}.pdf`;
}

export const generateReceiptJob = defineJob({
  name: 'orders.receipt',
  schema: z.object({ order_id: z.uuid() }),
  // Rendering and storing happen outside any transaction; the job opens its own short ones.
  transaction: false,
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryBackoff: true,
  handle: async (ctx, data, run) => {
    await generateReceipt(ctx, data.order_id, run!);
  },
});

/**
 * The signed link to the receipt of an order the caller may see, or null after queuing its rendering
 * (the route answers 202). An order never paid has no receipt: ResourceNotFound.
 */
export async function receiptUrl(ctx: Context, order: OrderRow): Promise<{ url: string } | null> {
  if (!isPaidStatus(order.status)) throw new ResourceNotFound();
  if (order.receipt_path === null || order.receipt_path !== receiptStorageKey(order)) {
    // One queued render per order: asking again while it waits adds nothing.
    await ctx.jobs.enqueue(generateReceiptJob, { order_id: order.id }, { singletonKey: order.id });
    return null;
  }
  // The server's clock, not an organization's test clock: the link is checked against the server's.
  const url = await objectStorage(ctx.config).downloadUrl(order.receipt_path, {
    expiry: linkExpiry(serverClock(ctx.clock), RECEIPT_LINK_TTL_SECONDS),
    filename: receiptFilename(order.invoice_number),
  });
  return { url };
}

/** `GET /v1/orders/{id}/receipt`. */
export async function getOrderReceipt(ctx: Context, id: string): Promise<{ url: string } | null> {
  const order = await findVisibleOrder(ctx.db, ctx.subject, id);
  if (!order) throw new ResourceNotFound();
  return receiptUrl(ctx, order);
}

export type ReceiptOutcome = 'generated' | 'already_generated' | 'not_paid';

/**
 * Renders and stores the receipt of the order as it is, then records its key: read in one transaction,
 * render and store with none open, record in another. Idempotent: a receipt already stored for the
 * order's state is left alone; a retry renders again into the same key. If a refund landed while
 * rendering, the key no longer matches and the job is retried, so the stored receipt is the latest.
 */
export async function generateReceipt(ctx: Context, orderId: string, run: JobRun): Promise<ReceiptOutcome> {
  const snapshot = await run.transaction((tx) => readReceiptSnapshot(tx, orderId));
  if (snapshot === 'already_generated' || snapshot === 'not_paid') return snapshot;

  const key = receiptStorageKey(snapshot.order);
  const document = receiptDocumentOf(snapshot.input);
  const { renderInvoicePdf } = await import('./orders.invoice-pdf.js');
  await objectStorage(ctx.config).put(key, renderInvoicePdf(document, { createdAt: snapshot.input.paidAt }), {
    contentType: 'application/pdf',
  });

  return run.transaction(async (tx) => {
    const current = await lockOrderById(tx.db, orderId);
    if (!current) return 'not_paid';
    if (receiptStorageKey(current) !== key) {
      throw new Error(`order ${orderId} was refunded while its receipt was rendered; rendering again`);
    }
    if (current.receipt_path === key) return 'already_generated';
    await setOrderReceiptPath(tx.db, orderId, key);
    return 'generated';
  });
}

interface ReceiptSnapshot {
  order: OrderRow;
  input: ReceiptInput;
}

async function readReceiptSnapshot(
  ctx: Context,
  orderId: string,
): Promise<ReceiptSnapshot | 'already_generated' | 'not_paid'> {
  const order = await findOrderById(ctx.db, orderId);
  if (!order || !isPaidStatus(order.status)) return 'not_paid';
  if (order.receipt_path === receiptStorageKey(order)) return 'already_generated';
  const [seller, customers, items, discounts, payment] = await Promise.all([
    findInvoiceSeller(ctx.db, order.organization_id),
    findCustomersByIds(ctx.db, [order.customer_id]),
    findItemsOfOrders(ctx.db, [order.id]),
    order.discount_id ? findDiscountsByIds(ctx.db, [order.discount_id]) : Promise.resolve([]),
    findSucceededPaymentOfOrder(ctx.db, order.id),
  ]);
  if (!seller) return 'not_paid';
  const customer = customers.get(order.customer_id);
  const card = payment?.method_metadata as { brand?: string; last4?: string } | null | undefined;
  return {
    order,
    input: {
      number: order.invoice_number,
      paidAt: payment?.created_at ?? order.created_at,
      seller,
      customerName: order.billing_name ?? customer?.name ?? customer?.email ?? '',
      customerEmail: customer?.email ?? null,
      billingAddress: (order.billing_address as InvoiceAddress | null) ?? null,
      taxId: customer?.tax_id ?? null,
      currency: order.currency,
      items: (items.get(order.id) ?? []).map((item) => ({
        label: item.label,
        amount: item.amount,
        proration: item.proration,
      })),
      subtotalAmount: order.subtotal_amount,
      discountAmount: order.discount_amount,
      discountName: discounts[0]?.name ?? null,
      taxAmount: order.tax_amount,
      taxDetails: order.tax_details,
      totalAmount: order.total_amount,
      appliedBalanceAmount: order.applied_balance_amount,
      card: card?.brand && card.last4 ? { brand: card.brand, last4: card.last4 } : null,
      refundedAmount: order.refunded_amount,
      refundedTaxAmount: order.refunded_tax_amount,
    },
  };
}
