import type { ColumnType } from 'kysely';
import type { Json, NullableJson, NullableTimestamp, Timestamp } from './types.js';

/** Tables of migration 0009: orders, order items, invoice numbering and requests, payments, simulated processor. */
export type OrderStatus = 'pending' | 'paid' | 'refunded' | 'partially_refunded';
export type OrderBillingReason = 'purchase' | 'subscription_create' | 'subscription_cycle' | 'subscription_update';
export type PaymentStatus = 'pending' | 'succeeded' | 'failed';

type Defaulted<T> = ColumnType<T, T | undefined, T>;
type NullableId = ColumnType<string | null, string | null | undefined, string | null>;

export interface OrganizationInvoiceSequencesTable {
  organization_id: string;
  last_number: number;
}

export interface OrdersTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  customer_id: string;
  product_id: string;
  product_price_id: NullableId;
  discount_id: NullableId;
  subscription_id: NullableId;
  checkout_id: NullableId;
  status: OrderStatus;
  billing_reason: OrderBillingReason;
  currency: string;
  subtotal_amount: number;
  discount_amount: number;
  net_amount: number;
  tax_amount: number;
  total_amount: number;
  refunded_amount: Defaulted<number>;
  /** Migration 0014: what the customer's credit balance paid of the total. */
  applied_balance_amount: Defaulted<number>;
  refunded_tax_amount: Defaulted<number>;
  /** Migration 0026: the calculation behind `tax_amount` (rate, label, jurisdiction, reverse charge). */
  tax_details: NullableJson;
  billing_name: string | null;
  billing_address: NullableJson;
  invoice_number: string;
  invoice_path: ColumnType<string | null, string | null | undefined, string | null>;
  /** Migration 0058: the stored receipt, under a key naming the order's state it shows. */
  receipt_path: ColumnType<string | null, string | null | undefined, string | null>;
  metadata: Json;
  custom_field_data: Json;
}

export interface OrderItemsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  order_id: string;
  position: number;
  label: string;
  amount: number;
  tax_amount: number;
  proration: boolean;
  product_price_id: NullableId;
}

export interface OrderInvoiceRequestsTable {
  order_id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  generated_at: NullableTimestamp;
}

export interface PaymentsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  checkout_id: NullableId;
  order_id: NullableId;
  processor: 'simulated' | 'stripe';
  processor_payment_id: string | null;
  status: PaymentStatus;
  amount: number;
  currency: string;
  method: string;
  method_metadata: NullableJson;
  decline_reason: string | null;
  decline_message: string | null;
  customer_email: string | null;
}

export interface SimulatedConfirmationTokensTable {
  id: string;
  created_at: Timestamp;
  used_at: NullableTimestamp;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  outcome: string;
}

export interface SimulatedPaymentMethodsTable {
  id: string;
  created_at: Timestamp;
  customer_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  outcome: string;
}

export interface SimulatedChargesTable {
  id: string;
  created_at: Timestamp;
  status: 'requires_action' | 'succeeded' | 'failed';
  amount: number;
  currency: string;
  amount_refunded: Defaulted<number>;
  payment_method_id: string | null;
  decline_reason: string | null;
  /** Migration 0015: what finishing an authentication needs. */
  client_secret: string | null;
  customer_id: string | null;
  save_payment_method: Defaulted<boolean>;
  brand: string | null;
  last4: string | null;
  exp_month: number | null;
  exp_year: number | null;
  outcome: string | null;
}

export interface SimulatedRefundsTable {
  id: string;
  created_at: Timestamp;
  charge_id: string;
  amount: number;
}

export interface SimulatedIdempotencyKeysTable {
  key: string;
  created_at: Timestamp;
  operation: string;
  result: Json;
}

export interface OrdersTables {
  organization_invoice_sequences: OrganizationInvoiceSequencesTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  order_invoice_requests: OrderInvoiceRequestsTable;
  payments: PaymentsTable;
  simulated_confirmation_tokens: SimulatedConfirmationTokensTable;
  simulated_payment_methods: SimulatedPaymentMethodsTable;
  simulated_charges: SimulatedChargesTable;
  simulated_refunds: SimulatedRefundsTable;
  simulated_idempotency_keys: SimulatedIdempotencyKeysTable;
}
