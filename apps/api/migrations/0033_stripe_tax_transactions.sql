-- Orders taxed by Stripe Tax whose tax transaction is not recorded at Stripe yet (docs/tax.md): the
-- `tax.stripe-transaction` job records each as it is paid, and the periodic sweep finds the ones a
-- failure left behind through this index (it holds only those, so the sweep reads nothing else).
CREATE INDEX orders_stripe_tax_unrecorded ON orders (created_at)
  WHERE tax_details->>'provider' = 'stripe_tax'
    AND tax_details->>'calculation_id' IS NOT NULL
    AND tax_details->>'transaction_id' IS NULL;
