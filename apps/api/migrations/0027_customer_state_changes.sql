-- Customers whose meters changed since their last `customer.state_changed`: each ingest adds the
-- customers its events reach (one statement per batch), and the `customers.state_changes` job drains
-- them. A customer ingested into many times while the job waits gets one event, with its state then.
CREATE TABLE customer_state_changes (
  customer_id uuid PRIMARY KEY,
  since timestamptz NOT NULL
);
