import type { Order, RefundReason } from '@tessera/sdk';
import { parseMoney } from '../../../lib/format';

export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  customer_request: 'Customer request',
  duplicate: 'Duplicate',
  fraudulent: 'Fraudulent',
  service_disruption: 'Service disruption',
  satisfaction_guarantee: 'Satisfaction guarantee',
  other: 'Other',
};

export const REFUND_REASON_OPTIONS = Object.entries(REFUND_REASON_LABELS).map(([value, label]) => ({ value, label }));

/** What is left to refund of the order, excluding tax (the API adds the tax portion). */
export function refundableAmount(order: Pick<Order, 'net_amount' | 'refunded_amount'>): number {
  return Math.max(order.net_amount - order.refunded_amount, 0);
}

/** Whether the order can be refunded at all: paid, with something left. */
export function canRefund(order: Pick<Order, 'status' | 'net_amount' | 'refunded_amount'>): boolean {
  return (order.status === 'paid' || order.status === 'partially_refunded') && refundableAmount(order) > 0;
}

export type AmountCheck = { ok: true; amount: number } | { ok: false; message: string };

/** The amount field: a positive amount in the order's currency, at most what is left to refund. */
export function checkRefundAmount(
  text: string,
  order: Pick<Order, 'currency' | 'net_amount' | 'refunded_amount'>,
): AmountCheck {
  const amount = parseMoney(text, order.currency);
  if (amount === null) return { ok: false, message: 'Enter an amount, e.g. 12.50.' };
  if (amount <= 0) return { ok: false, message: 'The amount must be more than zero.' };
  if (amount > refundableAmount(order)) return { ok: false, message: 'The amount is more than is left to refund.' };
  return { ok: true, amount };
}
