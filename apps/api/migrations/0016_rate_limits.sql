-- Rate limits: one counter per limited key and fixed window, shared by every API node. A request adds
-- one with an atomic upsert on (key, window_start); rows past expires_at are deleted by a periodic job.
CREATE TABLE rate_limits (
  key text NOT NULL,
  window_start timestamptz NOT NULL,
  count integer NOT NULL CHECK (count >= 0),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (key, window_start)
);

CREATE INDEX rate_limits_expires_at ON rate_limits (expires_at);
