import { describe, expect, it } from 'vitest';
import { z } from 'zod/v4';
import { PUBLIC } from '../src/platform/auth/subject.js';
import { defineRoute } from '../src/platform/http/route.js';
import { defineJob, type JobDefinition } from '../src/platform/jobs/queue.js';
import { startTestServer } from './harness.js';

/**
 * Graceful drain (what SIGTERM runs: `runtime.stop()`): a rolling restart loses no request and no job.
 * The node stops taking connections at once, answers the requests already in flight, lets the running
 * job finish, and only then closes the database.
 */

function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const requestEntered = gate();
const requestRelease = gate();
const jobEntered = gate();
const jobRelease = gate();
let jobFinished = false;

const slowRoute = defineRoute({
  method: 'GET',
  path: '/v1/test-probe/slow',
  operationId: 'test:slow',
  summary: 'Answers when the test lets it',
  tags: ['test'],
  auth: PUBLIC,
  internal: true,
  // No transaction held while it waits (with the embedded database it would hold the turn).
  transaction: false,
  status: 200,
  response: z.object({ ok: z.boolean() }),
  handler: async () => {
    requestEntered.open();
    await requestRelease.opened;
    return { ok: true };
  },
});

const slowJob = defineJob({
  name: 'test.slow_job',
  schema: z.object({}),
  transaction: false,
  handle: async () => {
    jobEntered.open();
    await jobRelease.opened;
    jobFinished = true;
  },
});

/** Whether `promise` is still pending after `ms`. */
async function pendingAfter(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const marker = Symbol('pending');
  const winner = await Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(marker), ms))]);
  return winner === marker;
}

describe('graceful shutdown', () => {
  it('answers in-flight requests and finishes the running job before it closes the database', async () => {
    const server = await startTestServer({
      listen: true,
      extraRoutes: [slowRoute],
      extraJobs: [slowJob as JobDefinition<never>],
    });
    try {
      await server.runtime.jobs.bind(server.runtime.database.db).enqueue(slowJob, {});
      await jobEntered.opened;
      const inFlight = fetch(`${server.url}/v1/test-probe/slow`);
      await requestEntered.opened;

      const stopping = server.runtime.stop();
      // New connections are refused at once (the load balancer moves on to other nodes)…
      await expect
        .poll(() =>
          fetch(`${server.url}/healthz`).then(
            () => 'answered',
            () => 'refused',
          ),
        )
        .toBe('refused');
      // …but the node waits for the request it is answering.
      expect(await pendingAfter(stopping, 300)).toBe(true);
      requestRelease.open();
      const response = await inFlight;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ ok: true });

      // Then for the job it is running, with its database still open.
      expect(await pendingAfter(stopping, 300)).toBe(true);
      expect(jobFinished).toBe(false);
      jobRelease.open();
      await stopping;
      expect(jobFinished).toBe(true);
      expect(server.runtime.database.pool.ended).toBe(true);
    } finally {
      requestRelease.open();
      jobRelease.open();
      await server.stop();
    }
  }, 60_000);
});
