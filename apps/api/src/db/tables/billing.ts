import type { ColumnType } from 'kysely';
import type { Timestamp } from './types.js';

/** Tables of migration 0014 (billing). Its columns on customers, orders and subscriptions are typed there. */
export interface CustomerBalanceTransactionsTable {
  id: string;
  created_at: Timestamp;
  organization_id: string;
  customer_id: string;
  currency: string;
  /** Minor units: > 0 adds credit, < 0 uses it. */
  amount: number;
  kind: 'credit' | 'applied' | 'restored' | 'refunded';
  order_id: string | null;
  /** Migration 0022: the refund that gave this back (one movement per refund). */
  refund_id: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface BillingTables {
  customer_balance_transactions: CustomerBalanceTransactionsTable;
}
