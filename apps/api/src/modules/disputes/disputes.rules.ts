import type { DisputeStatus } from '../../db/tables/payment-attempts.js';

/**
 * A dispute's states, as the reference: pure rules, table-tested. A dispute is closed once prevented, won
 * or lost, and resolved once won or lost; a closed dispute keeps its outcome whatever a late or replayed
 * processor event says, except a prevented one the card network escalated after all (reopened).
 */
export const DISPUTE_STATUSES = [
  'prevented',
  'early_warning',
  'needs_response',
  'under_review',
  'lost',
  'won',
] as const satisfies readonly DisputeStatus[];

export function isClosed(status: DisputeStatus): boolean {
  return status === 'prevented' || status === 'won' || status === 'lost';
}

export function isResolved(status: DisputeStatus): boolean {
  return status === 'won' || status === 'lost';
}

/** Stripe's dispute status as the reference's (`warning_*`: an inquiry before a chargeback). */
export function fromStripeStatus(status: string): DisputeStatus {
  switch (status) {
    case 'warning_needs_response':
    case 'warning_under_review':
      return 'early_warning';
    case 'warning_closed':
    case 'prevented':
      return 'prevented';
    case 'needs_response':
    case 'under_review':
    case 'won':
    case 'lost':
      return status;
    default:
      return 'needs_response';
  }
}

/** The status after the processor reports `reported` for a dispute now `current`. */
export function afterProcessorReport(current: DisputeStatus, reported: DisputeStatus): DisputeStatus {
  if (current === 'prevented') return isClosed(reported) ? 'prevented' : reported;
  if (isClosed(current)) return current;
  return reported;
}

export type AcceptDecision = 'already_accepted' | 'close_with_processor' | 'not_open';

/**
 * Accepting concedes the chargeback: only a dispute awaiting the seller's response can be (the
 * reference's DisputeNotOpenError otherwise), and accepting one already accepted answers it as it is.
 */
export function acceptDecision(dispute: { status: DisputeStatus; accepted_at: Date | null }): AcceptDecision {
  if (dispute.accepted_at !== null) return 'already_accepted';
  return dispute.status === 'needs_response' ? 'close_with_processor' : 'not_open';
}

/** The disputed total split into amount and tax in the order's proportion (the tax rounded down). */
export function splitDisputedTotal(
  total: number,
  order: { total_amount: number; tax_amount: number },
): { amount: number; tax_amount: number } {
  const capped = Math.min(total, order.total_amount);
  const tax = order.total_amount > 0 ? Math.floor((capped * order.tax_amount) / order.total_amount) : 0;
  return { amount: capped - tax, tax_amount: tax };
}
