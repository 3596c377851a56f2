-- One trial per customer under concurrent confirms (docs/trials.md): a confirm judges the trial under the
-- buyer's lock and reserves it at once, keyed by its checkout, before the processor is called. The
-- subscription is linked when the checkout succeeds; a failed attempt releases the reservation.
ALTER TABLE trial_redemptions
  ADD COLUMN checkout_id uuid,
  ALTER COLUMN subscription_id DROP NOT NULL;
UPDATE trial_redemptions
SET checkout_id = subscriptions.checkout_id
FROM subscriptions
WHERE subscriptions.id = trial_redemptions.subscription_id;
CREATE UNIQUE INDEX trial_redemptions_checkout_key ON trial_redemptions (checkout_id);
