-- Billing-run claims: a worker takes a batch of due subscriptions (or due charges) in one statement,
-- `FOR UPDATE SKIP LOCKED`, and marks them with its token until `…_claimed_until` (the server's clock).
-- Other workers running at the same time pass over claimed rows instead of working the same ones; a
-- worker that dies leaves a claim that simply expires. Exactly once per period does not rest on the
-- claim: the renewal's conditional UPDATE of `current_period_end` and the charge's attempt counter
-- under its row lock still decide. The claim only keeps concurrent runs from doing the same work.
ALTER TABLE subscriptions ADD COLUMN renewal_claim uuid, ADD COLUMN renewal_claimed_until timestamptz;
ALTER TABLE subscription_charges ADD COLUMN claim uuid, ADD COLUMN claimed_until timestamptz;
