import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { ManualClock } from '../src/platform/clock.js';
import { PeriodicScheduler } from '../src/platform/jobs/periodic.js';
import { defineJob, JOB_SCHEMA, type JobDefinition } from '../src/platform/jobs/queue.js';
import { startTestServer, type TestServer } from './harness.js';

/**
 * Several workers each run a PeriodicScheduler: a period's job must be enqueued once across all of
 * them, however many tick in that period (and whether or not an earlier run already finished).
 */
const tickJob = defineJob({
  name: 'test.periodic_tick',
  schema: z.object({}),
  handle: async () => {},
});

let server: TestServer;

beforeAll(async () => {
  // No workers: the jobs stay in the queue to be counted.
  server = await startTestServer({ extraJobs: [tickJob as JobDefinition<never>], work: false });
});
afterAll(() => server?.stop());

async function jobsOf(name: string): Promise<{ singleton_key: string }[]> {
  const { rows } = await server.runtime.database.pool.query<{ singleton_key: string }>(
    `SELECT singleton_key FROM ${JOB_SCHEMA}.job WHERE name = $1 ORDER BY created_on`,
    [name],
  );
  return rows;
}

describe('periodic tasks on several workers', () => {
  it('enqueues each period once, whatever the number of workers ticking in it', async () => {
    const clock = new ManualClock('2026-03-01T10:00:05.000Z');
    const jobs = server.runtime.jobs.bind(server.runtime.database.db);
    const task = { job: tickJob, everySeconds: 60 };
    const log = { warn: () => {} };
    const workers = [1, 2, 3].map(() => new PeriodicScheduler(jobs, clock, [task], log));

    for (const worker of workers) await worker.tick();
    expect(await jobsOf(tickJob.name)).toHaveLength(1);

    // A worker that restarts (its memory of the last slot gone) in the same period adds nothing.
    await new PeriodicScheduler(jobs, clock, [task], log).tick();
    expect(await jobsOf(tickJob.name)).toHaveLength(1);

    clock.advance(60_000);
    for (const worker of workers) await worker.tick();
    const keys = (await jobsOf(tickJob.name)).map((row) => row.singleton_key);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);
  });
});
