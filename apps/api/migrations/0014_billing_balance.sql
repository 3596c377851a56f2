-- Billing: the customer's credit balance, the balance applied to orders, when a subscription's discount
-- started to apply, and charges whose money came in after the subscription ended.

-- Every movement of a customer's credit balance, in minor units of its currency: positive when credit is
-- added (a plan change that credits more than the order it lands on), negative when the balance pays an
-- order, positive again when an order the balance paid is never collected. One movement of each kind
-- per order, so a retried step never moves the balance twice.
CREATE TABLE customer_balance_transactions (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL REFERENCES customers (id) ON DELETE CASCADE,
  currency text NOT NULL,
  amount bigint NOT NULL CHECK (amount <> 0),
  kind text NOT NULL CHECK (kind IN ('credit', 'applied', 'restored')),
  order_id uuid REFERENCES orders (id) ON DELETE SET NULL,
  UNIQUE (order_id, kind)
);
CREATE INDEX customer_balance_transactions_customer_idx ON customer_balance_transactions (customer_id, created_at);

-- The sum of the movements by currency ({"usd": 996}), kept with them in the same transaction under the
-- customer's row lock: what the API shows and what the next order may use.
ALTER TABLE customers ADD COLUMN credit_balances jsonb NOT NULL DEFAULT '{}';

-- What of the order's total the credit balance paid; the rest (total − applied) is what is charged.
ALTER TABLE orders ADD COLUMN applied_balance_amount bigint NOT NULL DEFAULT 0
  CHECK (applied_balance_amount >= 0 AND applied_balance_amount <= total_amount);

-- A discount's duration counts from the first period it paid for: the checkout's for a discount of the
-- checkout, the next period for one set on a running subscription.
ALTER TABLE subscriptions ADD COLUMN discount_applied_at timestamptz;
UPDATE subscriptions SET discount_applied_at = started_at WHERE discount_id IS NOT NULL;

-- A charge attempt whose money came in after its subscription ended is refunded: `refunding` until the
-- processor confirms, then `refunded` (the order records the refund).
ALTER TABLE subscription_charges DROP CONSTRAINT subscription_charges_status_check;
ALTER TABLE subscription_charges ADD CONSTRAINT subscription_charges_status_check
  CHECK (status IN ('pending', 'paid', 'failed', 'refunding', 'refunded'));
ALTER TABLE subscription_charges ADD COLUMN refund_payment_id text;
