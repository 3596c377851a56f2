-- Refunds of paid orders (`POST /v1/refunds/`). A refund is committed `pending` with the amount it
-- reserves before the payment processor is called (outside any transaction, with the refund's own
-- idempotency key), then settled `succeeded` or `failed` in a transaction of its own. The order's
-- refunded amounts move only when a refund succeeds; pending refunds count as reserved, so two
-- concurrent refunds of one order never give back more than was paid.
CREATE TABLE refunds (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  modified_at timestamptz,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  order_id uuid NOT NULL REFERENCES orders (id),
  subscription_id uuid,
  customer_id uuid NOT NULL REFERENCES customers (id),
  -- The payment the processor refunds (null when the credit balance paid the whole order).
  payment_id uuid REFERENCES payments (id),
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'canceled')),
  reason text NOT NULL CHECK (reason IN ('duplicate', 'fraudulent', 'customer_request', 'service_disruption',
    'satisfaction_guarantee', 'other')),
  -- Minor units, excluding tax; the tax portion beside it.
  amount bigint NOT NULL CHECK (amount > 0),
  tax_amount bigint NOT NULL CHECK (tax_amount >= 0),
  currency text NOT NULL,
  comment text,
  revoke_benefits boolean NOT NULL DEFAULT false,
  metadata jsonb NOT NULL DEFAULT '{}',
  processor text NOT NULL CHECK (processor IN ('simulated', 'stripe')),
  -- amount + tax split between what goes back to the card and what goes back to the credit balance
  -- (the part of the order the balance paid, once the card's part is all refunded).
  processor_amount bigint NOT NULL CHECK (processor_amount >= 0),
  balance_amount bigint NOT NULL CHECK (balance_amount >= 0),
  idempotency_key text NOT NULL UNIQUE,
  processor_refund_id text UNIQUE,
  failure_reason text,
  CHECK (processor_amount + balance_amount = amount + tax_amount)
);
CREATE INDEX refunds_organization_created_idx ON refunds (organization_id, created_at);
CREATE INDEX refunds_order_idx ON refunds (order_id);
CREATE INDEX refunds_customer_idx ON refunds (customer_id);
CREATE INDEX refunds_subscription_idx ON refunds (subscription_id) WHERE subscription_id IS NOT NULL;
CREATE INDEX refunds_pending_idx ON refunds (modified_at) WHERE status = 'pending';

-- A refund gives back to the credit balance what the balance paid: one movement per refund (an order
-- can have several), alongside the one-per-order kinds of migration 0014.
ALTER TABLE customer_balance_transactions ADD COLUMN refund_id uuid REFERENCES refunds (id) ON DELETE SET NULL;
ALTER TABLE customer_balance_transactions DROP CONSTRAINT customer_balance_transactions_kind_check;
ALTER TABLE customer_balance_transactions ADD CONSTRAINT customer_balance_transactions_kind_check
  CHECK (kind IN ('credit', 'applied', 'restored', 'refunded'));
ALTER TABLE customer_balance_transactions DROP CONSTRAINT customer_balance_transactions_order_id_kind_key;
CREATE UNIQUE INDEX customer_balance_transactions_order_kind_key ON customer_balance_transactions (order_id, kind)
  WHERE refund_id IS NULL;
CREATE UNIQUE INDEX customer_balance_transactions_refund_key ON customer_balance_transactions (refund_id)
  WHERE refund_id IS NOT NULL;
