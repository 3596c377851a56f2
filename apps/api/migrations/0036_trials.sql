-- Free trials (docs/trials.md). A recurring product may offer a trial of `trial_interval_count`
-- days, weeks, months or years; checkouts and checkout links may override it. By default a trial needs
-- a card (saved with a setup at checkout) and is given once per customer and product.
ALTER TABLE products
  ADD COLUMN trial_interval text,
  ADD COLUMN trial_interval_count integer,
  ADD COLUMN trial_requires_payment_method boolean NOT NULL DEFAULT true,
  ADD COLUMN trial_once_per_customer boolean NOT NULL DEFAULT true;

ALTER TABLE checkout_links
  ADD COLUMN trial_interval text,
  ADD COLUMN trial_interval_count integer;

-- A checkout's own trial (null: the product's); `trial_end` is fixed when the checkout is confirmed.
ALTER TABLE checkouts
  ADD COLUMN trial_interval text,
  ADD COLUMN trial_interval_count integer;

ALTER TABLE subscriptions
  ADD COLUMN trial_start timestamptz,
  ADD COLUMN trial_end timestamptz,
  -- When the trial-ending reminder was queued (it is sent once).
  ADD COLUMN trial_reminded_at timestamptz;
CREATE INDEX subscriptions_trial_reminder_idx ON subscriptions (trial_end)
  WHERE status = 'trialing' AND trial_reminded_at IS NULL;

-- Who had a trial of which product: the email (lower-cased) and the customer. A buyer who already had
-- one gets no other trial of the product, under any new checkout or customer with the same email.
CREATE TABLE trial_redemptions (
  id uuid PRIMARY KEY,
  created_at timestamptz NOT NULL,
  organization_id uuid NOT NULL,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  customer_id uuid NOT NULL,
  email text NOT NULL,
  subscription_id uuid NOT NULL
);
CREATE INDEX trial_redemptions_email_idx ON trial_redemptions (product_id, email);
CREATE INDEX trial_redemptions_customer_idx ON trial_redemptions (product_id, customer_id);
