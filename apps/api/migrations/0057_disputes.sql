-- Disputes as the reference's API shows them (GET /v1/disputes/, POST /v1/disputes/{id}/accept): the
-- order_disputes of migration 0015 keep the processor's word for the status; they now carry the
-- reference's status (a closed set), the disputed tax, the evidence deadline, the processor that reported
-- them and the seller's acceptance. Stripe's statuses recorded so far are translated once here.
ALTER TABLE order_disputes
  ADD COLUMN customer_id uuid REFERENCES customers (id) ON DELETE CASCADE,
  ADD COLUMN tax_amount bigint NOT NULL DEFAULT 0 CHECK (tax_amount >= 0),
  ADD COLUMN evidence_due_by timestamptz,
  ADD COLUMN past_due boolean NOT NULL DEFAULT false,
  ADD COLUMN processor text NOT NULL DEFAULT 'stripe',
  ADD COLUMN accepted_at timestamptz,
  ALTER COLUMN reason DROP NOT NULL;

UPDATE order_disputes AS d SET customer_id = o.customer_id FROM orders AS o WHERE o.id = d.order_id;
ALTER TABLE order_disputes ALTER COLUMN customer_id SET NOT NULL;

UPDATE order_disputes SET status = CASE status
  WHEN 'warning_needs_response' THEN 'early_warning'
  WHEN 'warning_under_review' THEN 'early_warning'
  WHEN 'warning_closed' THEN 'prevented'
  WHEN 'needs_response' THEN 'needs_response'
  WHEN 'under_review' THEN 'under_review'
  WHEN 'won' THEN 'won'
  WHEN 'lost' THEN 'lost'
  WHEN 'prevented' THEN 'prevented'
  ELSE 'needs_response' END;
ALTER TABLE order_disputes ADD CONSTRAINT order_disputes_status_check
  CHECK (status IN ('prevented', 'early_warning', 'needs_response', 'under_review', 'lost', 'won'));
ALTER TABLE order_disputes ADD CONSTRAINT order_disputes_processor_check CHECK (processor IN ('stripe', 'simulated'));

CREATE INDEX order_disputes_organization_created_idx ON order_disputes (organization_id, created_at DESC, id);
