import { randomUUID } from 'node:crypto';
import type { PaymentStatus } from '../../db/tables/orders.js';
import type { Context } from '../../platform/context.js';
import { ResourceNotFound } from '../../platform/http/errors.js';
import { pageOf } from '../../platform/http/query.js';
import {
  findVisiblePayment,
  insertPayment,
  insertPayments,
  linkPaymentToOrderRow,
  listVisiblePayments,
} from './payments.repository.js';
import type { PaymentListParams } from './payments.schemas.js';
import { serializePayment, type PaymentWire } from './payments.serializer.js';

export async function listPayments(ctx: Context, params: PaymentListParams) {
  const { rows, total } = await listVisiblePayments(ctx.db, ctx.subject, params);
  return pageOf(rows.map(serializePayment), total, params);
}

export async function getPayment(ctx: Context, id: string): Promise<PaymentWire> {
  const row = await findVisiblePayment(ctx.db, ctx.subject, id);
  if (!row) throw new ResourceNotFound();
  return serializePayment(row);
}

/** One charge attempt as the processor answered it (a checkout may collect several failures). */
export interface RecordPaymentInput {
  organization_id: string;
  /** At least one of checkout_id and order_id. */
  checkout_id: string | null;
  order_id: string | null;
  /** Which processor took it; the wire always says "stripe". */
  processor: 'simulated' | 'stripe';
  processor_payment_id: string | null;
  status: PaymentStatus;
  amount: number;
  currency: string;
  /** "card" unless the processor reports another method. */
  method?: string;
  card: { brand: string; last4: string } | null;
  decline_reason?: string | null;
  decline_message?: string | null;
  customer_email: string | null;
}

/** Records a payment in the caller's transaction (called for succeeded and failed charges alike). */
export async function recordPayment(ctx: Context, input: RecordPaymentInput): Promise<PaymentWire> {
  return serializePayment(await insertPayment(ctx.db, paymentRow(ctx, input)));
}

/** Records payments as `recordPayment` does, in one statement (a billing group's outcomes). */
export async function recordPayments(ctx: Context, inputs: readonly RecordPaymentInput[]): Promise<void> {
  const rows = inputs.map((input) => paymentRow(ctx, input));
  await insertPayments(ctx.db, rows);
}

function paymentRow(ctx: Context, input: RecordPaymentInput) {
  if (!input.checkout_id && !input.order_id) throw new Error('a payment must link to a checkout or an order');
  if (!Number.isSafeInteger(input.amount) || input.amount < 0) {
    throw new Error(`payment amount must be an integer ≥ 0 in minor units, got ${input.amount}`);
  }
  const declined = input.status === 'failed';
  return {
    id: randomUUID(),
    created_at: ctx.clock.now(),
    modified_at: null,
    organization_id: input.organization_id,
    checkout_id: input.checkout_id,
    order_id: input.order_id,
    processor: input.processor,
    processor_payment_id: input.processor_payment_id,
    status: input.status,
    amount: input.amount,
    currency: input.currency,
    method: input.method ?? 'card',
    method_metadata: input.card ? JSON.stringify({ brand: input.card.brand, last4: input.card.last4 }) : null,
    // Decline details exist only for declined payments, as the reference keeps them.
    decline_reason: declined ? (input.decline_reason ?? null) : null,
    decline_message: declined ? (input.decline_message ?? null) : null,
    customer_email: input.customer_email,
  };
}

/** Links a payment taken before its order existed (checkout confirm) to the order created from it. */
export async function linkPaymentToOrder(ctx: Context, paymentId: string, orderId: string): Promise<PaymentWire> {
  const row = await linkPaymentToOrderRow(ctx.db, paymentId, orderId, ctx.clock.now());
  if (!row) throw new ResourceNotFound();
  return serializePayment(row);
}
