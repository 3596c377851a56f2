-- The mail layer (platform/mail): the outbox of migration 0008 gains what sending needs. A row is written
-- in the transaction that decides to send it; the sender claims it (a short lease), sends it with no
-- transaction open, and marks it sent. `status`: pending (waiting to be sent or retried), sent, failed
-- (retries exhausted or refused for good).
ALTER TABLE emails
  ADD COLUMN template text,
  ADD COLUMN html_body text,
  ADD COLUMN status text NOT NULL DEFAULT 'pending',
  ADD COLUMN attempts integer NOT NULL DEFAULT 0,
  -- Server clock (never an organization's test clock): when the row is next due.
  ADD COLUMN next_attempt_at timestamptz,
  -- Sending lease: the row is being sent until then; a sender that died leaves a lease that expires.
  ADD COLUMN sending_until timestamptz,
  ADD COLUMN last_error text,
  -- Where it went: 'smtp', or 'outbox' (no SMTP_URL: kept here, listed by `tessera mail list`).
  ADD COLUMN transport text;

UPDATE emails SET status = 'sent' WHERE sent_at IS NOT NULL;
UPDATE emails SET next_attempt_at = created_at WHERE status = 'pending';

DROP INDEX emails_unsent_idx;
CREATE INDEX emails_due_idx ON emails (next_attempt_at) WHERE status = 'pending';
CREATE INDEX emails_organization_idx ON emails (organization_id, created_at);

-- Which customer emails the organization sends (keys of the `customer_email_settings` wire object; a
-- missing key is on).
ALTER TABLE organizations ADD COLUMN customer_email_settings jsonb NOT NULL DEFAULT '{}'::jsonb;
