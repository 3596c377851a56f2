import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../harness.js';
import { runFuzz } from './runner.js';
import { buildWorld, type World } from './world.js';

/**
 * A bounded, fixed-seed sample of the fuzz suite (`npm run test:fuzz` runs the long one): every
 * operation of openapi.json, generated valid and invalid requests, no 5xx, documented error shapes,
 * refused writes change nothing.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 6);

let server: TestServer;
let world: World;

beforeAll(async () => {
  // No workers: only the requests change the database, so a refused one must leave it as it was.
  server = await startTestServer({ work: false });
  world = await buildWorld(server, 'Fuzz');
});
afterAll(async () => {
  await server?.stop();
});

describe('fuzzing every operation of openapi.json', () => {
  it('never answers a 5xx, always the documented error shape, and refused writes change nothing', async () => {
    const stats = await runFuzz(server, world, { seed: SEED, runsPerOperation: RUNS_PER_OPERATION, rounds: 2 });
    expect(stats.operations).toBeGreaterThan(90);
    expect(stats.requests).toBe(stats.operations * RUNS_PER_OPERATION * 2);
    // 5xx answers first: they are the worst of what a failure lists.
    const problems = [...stats.problems].sort(
      (a, b) => Number(b.includes('status 5')) - Number(a.includes('status 5')),
    );
    expect({ serverErrors: stats.serverErrors, problems: problems.slice(0, 20) }).toEqual({
      serverErrors: 0,
      problems: [],
    });
  }, 400_000);
});
