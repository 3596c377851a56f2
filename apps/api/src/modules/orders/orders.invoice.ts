import { z } from 'zod/v4';
import type { Context } from '../../platform/context.js';
import { recordWebhookEvent } from '../../platform/events.js';
import { ResourceNotFound } from '../../platform/http/errors.js';
import { defineJob, type JobRun } from '../../platform/jobs/queue.js';
import { linkExpiry, objectStorage } from '../../platform/storage/index.js';
import { onOrganizationClock, serverClock } from '../../platform/test-clock.js';
import { findDiscountsByIds } from '../discounts/discounts.repository.js';
import {
  InvoiceAlreadyExists,
  InvoiceDoesNotExist,
  MissingInvoiceBillingDetails,
  NotPaidOrder,
} from './orders.errors.js';
import { invoiceDocumentOf, type InvoiceAddress, type InvoiceInput } from './orders.invoice-document.js';
import {
  findCustomersByIds,
  findInvoiceSeller,
  findItemsOfOrders,
  findOrderById,
  findVisibleOrder,
  lockOrderById,
  lockVisibleOrder,
  markInvoiceRequestGenerated,
  updateOrderRow,
  upsertInvoiceRequest,
  type OrderRow,
} from './orders.repository.js';
import { isPaidStatus } from './orders.serializer.js';
import { loadOrder } from './orders.service.js';

/**
 * Invoices (research §2.6): a request checked as the reference checks it, then the `orders.invoice`
 * job renders the PDF with no transaction open, stores it, and marks the order in a transaction of its
 * own. The invoice number is the order's, allocated with the order (`createOrder`): one per order of
 * the organization, consecutive, never reused. Shared by the seller routes and the customer portal.
 */

/** How long a download link stays valid. */
export const INVOICE_LINK_TTL_SECONDS = 10 * 60;

/** Where an order's invoice is stored: one object per order, so a retried render replaces its own file. */
export function invoiceStorageKey(order: Pick<OrderRow, 'organization_id' | 'id'>): string {
  return `invoices/${order.organization_id}/${order.id}.pdf`;
}

export function invoiceFilename(invoiceNumber: string): string {
  return `Invoice-${invoiceNumber}.pdf`;
}

export const generateInvoiceJob = defineJob({
  name: 'orders.invoice',
  schema: z.object({ order_id: z.uuid() }),
  // Rendering and storing happen outside any transaction; the job opens its own short ones.
  transaction: false,
  retryLimit: 10,
  retryDelaySeconds: 2,
  retryBackoff: true,
  handle: async (ctx, data, run) => {
    await generateInvoice(ctx, data.order_id, run!);
  },
});

/**
 * Accepts an invoice request for an order the caller has locked (202): the checks of the reference, in
 * its order, then the request row and the job, both in the caller's transaction.
 */
export async function requestInvoice(ctx: Context, order: OrderRow): Promise<Record<string, never>> {
  if (order.invoice_path !== null) throw new InvoiceAlreadyExists(order.id);
  if (!isPaidStatus(order.status)) throw new NotPaidOrder(order.id);
  if (order.billing_name === null || order.billing_address === null) throw new MissingInvoiceBillingDetails();
  await upsertInvoiceRequest(ctx.db, order.id, ctx.clock.now());
  // One queued render per order: asking again while it waits adds nothing.
  await ctx.jobs.enqueue(generateInvoiceJob, { order_id: order.id }, { singletonKey: order.id });
  return {};
}

/** A short-lived download link to the order's invoice, or `InvoiceDoesNotExist` before it is rendered. */
export async function invoiceUrl(ctx: Context, order: OrderRow): Promise<{ url: string }> {
  if (order.invoice_path === null) throw new InvoiceDoesNotExist(order.id);
  // The server's clock, not an organization's test clock: the link is checked against the server's.
  const url = await objectStorage(ctx.config).downloadUrl(order.invoice_path, {
    expiry: linkExpiry(serverClock(ctx.clock), INVOICE_LINK_TTL_SECONDS),
    filename: invoiceFilename(order.invoice_number),
  });
  return { url };
}

/** `POST /v1/orders/{id}/invoice`. */
export async function requestOrderInvoice(ctx: Context, id: string): Promise<Record<string, never>> {
  const order = await lockVisibleOrder(ctx.db, ctx.subject, id);
  if (!order) throw new ResourceNotFound();
  return requestInvoice(ctx, order);
}

/** `GET /v1/orders/{id}/invoice`. */
export async function getOrderInvoice(ctx: Context, id: string): Promise<{ url: string }> {
  const order = await findVisibleOrder(ctx.db, ctx.subject, id);
  if (!order) throw new ResourceNotFound();
  return invoiceUrl(ctx, order);
}

export type InvoiceOutcome = 'generated' | 'already_generated' | 'not_invoiceable';

/**
 * Renders and stores the invoice of an order, then records it: read in one transaction, render and
 * store with none open, mark in another. Idempotent: an order already invoiced is left alone; a retry
 * after a crash renders again into the same key. If the order changed while rendering (its billing
 * details, a refund), the mark is refused and the job retried, so the stored PDF is the order's latest.
 */
export async function generateInvoice(ctx: Context, orderId: string, run: JobRun): Promise<InvoiceOutcome> {
  const snapshot = await run.transaction((tx) => readInvoiceSnapshot(tx, orderId));
  if (snapshot === 'already_generated' || snapshot === 'not_invoiceable') return snapshot;

  const key = invoiceStorageKey(snapshot.order);
  const document = invoiceDocumentOf(snapshot.input);
  // pdfkit (with its fonts) is loaded by the first invoice rendered, not at every start.
  const { renderInvoicePdf } = await import('./orders.invoice-pdf.js');
  await objectStorage(ctx.config).put(key, renderInvoicePdf(document, { createdAt: snapshot.order.created_at }), {
    contentType: 'application/pdf',
  });

  return run.transaction(async (tx) => {
    const current = await lockOrderById(tx.db, orderId);
    if (!current) return 'not_invoiceable';
    if (current.invoice_path !== null) return 'already_generated';
    if (current.modified_at?.getTime() !== snapshot.order.modified_at?.getTime()) {
      throw new Error(`order ${orderId} changed while its invoice was rendered; rendering again`);
    }
    const octx = await onOrganizationClock(tx, current.organization_id);
    const now = octx.clock.now();
    await updateOrderRow(tx.db, orderId, { invoice_path: key, modified_at: now });
    await markInvoiceRequestGenerated(tx.db, orderId, now);
    await recordWebhookEvent(octx, current.organization_id, 'order.updated', await loadOrder(octx, orderId));
    return 'generated';
  });
}

interface InvoiceSnapshot {
  order: OrderRow;
  input: InvoiceInput;
}

async function readInvoiceSnapshot(
  ctx: Context,
  orderId: string,
): Promise<InvoiceSnapshot | 'already_generated' | 'not_invoiceable'> {
  const order = await findOrderById(ctx.db, orderId);
  if (!order || !isPaidStatus(order.status) || order.billing_name === null || order.billing_address === null) {
    return 'not_invoiceable';
  }
  if (order.invoice_path !== null) return 'already_generated';
  const [seller, customers, items, discounts] = await Promise.all([
    findInvoiceSeller(ctx.db, order.organization_id),
    findCustomersByIds(ctx.db, [order.customer_id]),
    findItemsOfOrders(ctx.db, [order.id]),
    order.discount_id ? findDiscountsByIds(ctx.db, [order.discount_id]) : Promise.resolve([]),
  ]);
  if (!seller) return 'not_invoiceable';
  return {
    order,
    input: {
      invoiceNumber: order.invoice_number,
      issuedAt: order.created_at,
      seller,
      billingName: order.billing_name,
      billingAddress: order.billing_address as InvoiceAddress,
      taxId: customers.get(order.customer_id)?.tax_id ?? null,
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
      refundedAmount: order.refunded_amount,
      refundedTaxAmount: order.refunded_tax_amount,
      status: order.status,
    },
  };
}
