import type { ColumnType } from 'kysely';
import type { NullableTimestamp, Timestamp } from './types.js';

type Defaulted<T> = ColumnType<T, T | undefined, T>;
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;

/** Tables of migration 0024: the customer's saved payment methods and the simulated processor's setups. */
export interface CustomerPaymentMethodsTable {
  id: string;
  created_at: Timestamp;
  modified_at: NullableTimestamp;
  organization_id: string;
  customer_id: string;
  processor: 'simulated' | 'stripe';
  status: 'pending' | 'requires_action' | 'active' | 'failed' | 'removed';
  idempotency_key: string;
  processor_payment_method_id: Nullable<string>;
  processor_setup_id: Nullable<string>;
  type: Defaulted<string>;
  brand: Nullable<string>;
  last4: Nullable<string>;
  exp_month: Nullable<number>;
  exp_year: Nullable<number>;
  wallet: Nullable<string>;
  set_default: Defaulted<boolean>;
  is_default: Defaulted<boolean>;
  decline_reason: Nullable<string>;
  removed_at: NullableTimestamp;
}

export interface SimulatedSetupIntentsTable {
  id: string;
  created_at: Timestamp;
  customer_id: string;
  status: 'requires_action' | 'succeeded' | 'failed';
  client_secret: string | null;
  payment_method_id: string | null;
  decline_reason: string | null;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
  outcome: string;
}

export interface PaymentMethodsTables {
  customer_payment_methods: CustomerPaymentMethodsTable;
  simulated_setup_intents: SimulatedSetupIntentsTable;
}
