import type PgBoss from 'pg-boss';

/** The channel a committed job's queue name is notified on (`pg_notify`, delivered at commit). */
export const JOB_WAKE_CHANNEL = 'tessera_jobs';

/**
 * A trigger on pg-boss's job table (inherited by every queue's partition, present and future) that
 * notifies the queue's name when a job that can start now is inserted: delivered when, and only if,
 * the enqueuing transaction commits, so workers start a job at once instead of at their next poll, and
 * poll rarely. Created once per database (an advisory lock keeps two nodes starting together from
 * racing); the function is replaced at every start, so a newer version's body takes over.
 */
const wakeTrigger = (schema: string) => `
DO $do$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('tessera_wake_job_workers'));
  CREATE OR REPLACE FUNCTION public.tessera_wake_job_workers() RETURNS trigger LANGUAGE plpgsql AS $f$
  BEGIN
    PERFORM pg_notify('${JOB_WAKE_CHANNEL}', NEW.name);
    RETURN NULL;
  END
  $f$;
  IF NOT EXISTS (
    SELECT 1 FROM pg_trigger WHERE tgname = 'tessera_wake_job_workers' AND tgrelid = '${schema}.job'::regclass
  ) THEN
    CREATE TRIGGER tessera_wake_job_workers AFTER INSERT ON ${schema}.job
      FOR EACH ROW WHEN (NEW.start_after <= now()) EXECUTE FUNCTION public.tessera_wake_job_workers();
  END IF;
END
$do$`;

export async function installJobWakeTrigger(boss: PgBoss, schema: string): Promise<void> {
  await boss.getDb().executeSql(wakeTrigger(schema), []);
}
