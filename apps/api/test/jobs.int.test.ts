import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { defineJob, type JobDefinition } from '../src/platform/jobs/queue.js';
import { startTestServer, type TestServer } from './harness.js';

/** The outbox: a job enqueued inside a transaction exists only if that transaction commits. */
const seen: string[] = [];
const recordJob = defineJob({
  name: 'test.record',
  schema: z.object({ marker: z.string() }),
  handle: async (_ctx, data) => {
    seen.push(data.marker);
  },
});

/** A job on the pool (`transaction: false`): it waits at `gate` with no transaction open. */
const poolRun: { outside?: boolean; inside?: boolean; entered?: boolean } = {};
let openGate = () => {};
const gate = new Promise<void>((resolve) => (openGate = resolve));
const poolJob = defineJob({
  name: 'test.pool',
  schema: z.object({ marker: z.string() }),
  transaction: false,
  handle: async (ctx, data, run) => {
    poolRun.outside = ctx.db.isTransaction;
    poolRun.entered = true;
    await gate;
    await run!.transaction(async (tx) => {
      poolRun.inside = tx.db.isTransaction;
      await tx.jobs.enqueue(recordJob, { marker: `${data.marker}:from-transaction` });
    });
  },
});

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    extraJobs: [recordJob as JobDefinition<never>, poolJob as JobDefinition<never>],
    // Far longer than any wait below: a job runs because its commit woke a worker, never by the poll.
    jobPollSeconds: 600,
  });
});
afterAll(() => server?.stop());

describe('job queue outbox', () => {
  it('wakes a worker when a job commits, with the poll far away', async () => {
    // The workers' first poll has passed once the server is up: only the commit's notification is left.
    await server.runtime.database.db.transaction().execute(async (tx) => {
      await server.runtime.context(tx).jobs.enqueue(recordJob, { marker: 'woken' });
    });
    await expect.poll(() => seen, { timeout: 20_000, interval: 20 }).toContain('woken');
  });

  it('runs every job of a burst one transaction enqueued (one notification) without waiting for the poll', async () => {
    const burst = ['burst-1', 'burst-2', 'burst-3', 'burst-4', 'burst-5'];
    await server.runtime.database.db.transaction().execute(async (tx) => {
      for (const marker of burst) await server.runtime.context(tx).jobs.enqueue(recordJob, { marker });
    });
    await expect
      .poll(() => burst.filter((marker) => seen.includes(marker)), { timeout: 20_000, interval: 20 })
      .toEqual(burst);
  });

  it('runs a job enqueued in a committed transaction', async () => {
    await server.runtime.database.db.transaction().execute(async (tx) => {
      await server.runtime.context(tx).jobs.enqueue(recordJob, { marker: 'committed' });
    });
    await expect.poll(() => seen, { timeout: 15_000, interval: 100 }).toContain('committed');
  });

  it('never runs a job enqueued in a transaction that rolls back', async () => {
    await expect(
      server.runtime.database.db.transaction().execute(async (tx) => {
        await server.runtime.context(tx).jobs.enqueue(recordJob, { marker: 'rolled-back' });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await server.runtime.database.db.transaction().execute(async (tx) => {
      await server.runtime.context(tx).jobs.enqueue(recordJob, { marker: 'after' });
    });
    await expect.poll(() => seen, { timeout: 15_000, interval: 100 }).toContain('after');
    expect(seen).not.toContain('rolled-back');
    const queued = await server.runtime.jobs.boss.getQueueSize('test.record');
    expect(queued).toBe(0);
  });

  it('runs a `transaction: false` job on the pool: nothing is held while it waits', async () => {
    await server.runtime.context().jobs.enqueue(poolJob, { marker: 'pool' });
    await expect.poll(() => poolRun.entered, { timeout: 15_000, interval: 50 }).toBe(true);
    expect(poolRun.outside).toBe(false);
    // With the embedded database an open transaction would hold the database's turn: this would wait.
    const started = Date.now();
    await server.runtime.database.db.selectFrom('organizations').select('id').limit(1).execute();
    await server.runtime.database.db.transaction().execute(async (tx) => {
      await server.runtime.context(tx).jobs.enqueue(recordJob, { marker: 'meanwhile' });
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    openGate();
    await expect
      .poll(() => seen, { timeout: 15_000, interval: 100 })
      .toEqual(expect.arrayContaining(['meanwhile', 'pool:from-transaction']));
    expect(poolRun.inside).toBe(true);
  });

  it('refuses a payload that does not match the job schema', async () => {
    await expect(
      server.runtime.context().jobs.enqueue(recordJob, { marker: 42 } as unknown as { marker: string }),
    ).rejects.toThrow();
  });
});
