import type { ColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from './types.js';

/**
 * Tables of migration 0015: checkout payment attempts, Stripe webhook events received, order disputes,
 * customer portal sign-in codes.
 */
export type PaymentAttemptStatus =
  'pending' | 'interrupted' | 'requires_action' | 'processing' | 'succeeded' | 'failed';

export interface CheckoutPaymentAttemptsTable {
  id: string;
  created_at: Timestamp;
  modified_at: Timestamp;
  organization_id: string;
  checkout_id: string;
  attempt: number;
  kind: 'charge' | 'setup';
  status: PaymentAttemptStatus;
  idempotency_key: string;
  processor: 'simulated' | 'stripe';
  confirmation_token_id: string;
  customer_id: string;
  issue_customer_session: boolean;
  amount: number;
  currency: string;
  save_payment_method: boolean;
  processor_payment_id: string | null;
  payment_id: string | null;
}

export interface StripeWebhookEventsTable {
  id: string;
  created_at: Timestamp;
  type: string;
}

export interface OrderDisputesTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  order_id: string;
  payment_id: string | null;
  processor_dispute_id: string;
  amount: number;
  currency: string;
  reason: string | null;
  status: DisputeStatus;
  /** Migration 0057: the reference's fields and the seller's acceptance. */
  customer_id: string;
  tax_amount: ColumnType<number, number | undefined, number>;
  evidence_due_by: NullableTimestamp;
  past_due: ColumnType<boolean, boolean | undefined, boolean>;
  processor: ColumnType<'stripe' | 'simulated', 'stripe' | 'simulated' | undefined, 'stripe' | 'simulated'>;
  accepted_at: NullableTimestamp;
}

/** The reference's dispute statuses (migration 0057). */
export type DisputeStatus = 'prevented' | 'early_warning' | 'needs_response' | 'under_review' | 'lost' | 'won';

export interface CustomerSessionCodesTable {
  id: string;
  created_at: Timestamp;
  expires_at: Timestamp;
  code_hash: string;
  customer_id: string;
}

export interface PaymentAttemptsTables {
  customer_session_codes: CustomerSessionCodesTable;
  checkout_payment_attempts: CheckoutPaymentAttemptsTable;
  stripe_webhook_events: StripeWebhookEventsTable;
  order_disputes: OrderDisputesTable;
}
