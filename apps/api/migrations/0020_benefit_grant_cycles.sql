-- A subscription's benefit grants cycle once per period: a cycle job run again (a retry after its
-- transaction committed, or the same period enqueued twice) finds its period here and does nothing,
-- so a meter_credit benefit credits its units exactly once per period.
CREATE TABLE benefit_grant_cycles (
  grant_id uuid NOT NULL REFERENCES benefit_grants (id) ON DELETE CASCADE,
  period_start timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (grant_id, period_start)
);
