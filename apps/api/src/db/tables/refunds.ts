import type { ColumnType } from 'kysely';
import type { Json, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0022: refunds of paid orders. */
export type RefundStatus = 'pending' | 'succeeded' | 'failed' | 'canceled';
export type RefundReason =
  'duplicate' | 'fraudulent' | 'customer_request' | 'service_disruption' | 'satisfaction_guarantee' | 'other';

type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

export interface RefundsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  order_id: string;
  subscription_id: string | null;
  customer_id: string;
  payment_id: string | null;
  status: RefundStatus;
  reason: RefundReason;
  /** Minor units, excluding tax. */
  amount: number;
  tax_amount: number;
  currency: string;
  comment: string | null;
  revoke_benefits: boolean;
  metadata: Json;
  processor: 'simulated' | 'stripe';
  /** What the processor gives back to the card (amount + tax − balance_amount). */
  processor_amount: number;
  /** What goes back to the customer's credit balance (the part of the order the balance paid). */
  balance_amount: number;
  idempotency_key: string;
  processor_refund_id: Nullable<string>;
  failure_reason: Nullable<string>;
}

export interface RefundsTables {
  refunds: RefundsTable;
}
