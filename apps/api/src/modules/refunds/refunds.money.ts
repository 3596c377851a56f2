import type { OrderStatus } from '../../db/tables/orders.js';
import { divideRoundHalfEven } from '../billing/billing.money.js';

/**
 * The money rules of refunds (research §7.2, §7.3), pure and table-tested next to this file. Amounts
 * are integers in minor units; a refund's `amount` excludes tax, its tax portion is computed here.
 */

/** What an order has given back, or has reserved for refunds still pending at the processor. */
export interface OrderRefundState {
  net_amount: number;
  tax_amount: number;
  /** Succeeded refunds plus pending ones (reserved under the order's row lock). */
  refunded_amount: number;
  refunded_tax_amount: number;
}

/** What is left to refund, excluding tax: net − refunded (never below 0). */
export function refundableAmount(order: OrderRefundState): number {
  return Math.max(order.net_amount - order.refunded_amount, 0);
}

/** What is left of the tax to refund: tax − refunded tax (never below 0). */
export function refundableTaxAmount(order: OrderRefundState): number {
  return Math.max(order.tax_amount - order.refunded_tax_amount, 0);
}

/**
 * The tax portion of a refund of `amount` (excluding tax): all the tax left when the refund takes
 * everything left; otherwise round(amount × tax / net), half to even (Python's `round`, as the
 * reference), capped at the tax left so rounding never gives back more tax than was paid.
 */
export function refundTaxPortion(order: OrderRefundState, amount: number): number {
  const refundableTax = refundableTaxAmount(order);
  if (amount === refundableAmount(order)) return refundableTax;
  if (order.net_amount <= 0 || amount <= 0) return 0;
  const portion = Number(divideRoundHalfEven(BigInt(amount) * BigInt(order.tax_amount), BigInt(order.net_amount)));
  return Math.min(portion, refundableTax);
}

/**
 * An order's status once `refunded` (excluding tax) of its net has been given back (research §7.3):
 * `paid` when nothing is, `refunded` when all of the net is (tax not considered), else
 * `partially_refunded`. A pending order stays pending.
 */
export function orderStatusAfterRefunds(
  order: { status: OrderStatus; net_amount: number },
  refunded: number,
): OrderStatus {
  if (order.status === 'pending') return 'pending';
  if (refunded <= 0) return 'paid';
  if (refunded >= order.net_amount) return 'refunded';
  return 'partially_refunded';
}

/**
 * How a refund of `total` (amount + tax) goes back: to the card first, up to what the card paid and
 * has not had back yet (`cardRefundable`); the rest to the customer's credit balance, which paid that
 * part of the order.
 */
export function splitRefund(total: number, cardRefundable: number): { processor: number; balance: number } {
  const processor = Math.min(total, Math.max(cardRefundable, 0));
  return { processor, balance: total - processor };
}
