/**
 * The long fuzz run (`npm run test:fuzz`): every operation of openapi.json, FUZZ_ROUNDS rounds of
 * FUZZ_RUNS generated requests each (21,825 requests by default), on the embedded database. Prints
 * the number of requests and of answers ≥ 500, and every problem found; exits 1 if there is any.
 * FUZZ_PATHS (comma-separated path prefixes) runs only those operations; FUZZ_TRACE=1 prints each
 * request before it is sent.
 */
import { startTestServer } from '../harness.js';
import { runFuzz } from './runner.js';
import { buildWorld } from './world.js';

const seed = Number(process.env.FUZZ_SEED ?? 20_261_124);
const runsPerOperation = Number(process.env.FUZZ_RUNS ?? 25);
const rounds = Number(process.env.FUZZ_ROUNDS ?? 9);
const onlyPaths = process.env.FUZZ_PATHS?.split(',').filter(Boolean);

const started = Date.now();
const server = await startTestServer({ work: false });
try {
  const world = await buildWorld(server, 'Fuzz');
  const stats = await runFuzz(server, world, {
    seed,
    runsPerOperation,
    rounds,
    ...(onlyPaths ? { onlyPaths } : {}),
    progress: (s) =>
      console.log(
        `… ${s.requests} requests, ${s.serverErrors} answers >= 500, ${s.problems.length} problems ` +
          `(${Math.round((Date.now() - started) / 1000)} s)`,
      ),
  });
  for (const problem of stats.problems.slice(0, 100)) console.log(`PROBLEM ${problem}`);
  if (process.env.FUZZ_VERBOSE) {
    for (const [operation, statuses] of Object.entries(stats.byOperation)) {
      console.log(`${operation}: ${JSON.stringify(statuses)}`);
    }
  }
  const statuses = Object.entries(stats.byStatus)
    .map(([status, count]) => `${status}: ${count}`)
    .join(', ');
  console.log(`seed ${seed}, ${stats.operations} operations, ${rounds} rounds of ${runsPerOperation} requests each`);
  console.log(`answers by status: ${statuses}`);
  console.log(`requests: ${stats.requests}`);
  console.log(`answers >= 500: ${stats.serverErrors}`);
  console.log(`problems: ${stats.problems.length}`);
  process.exitCode = stats.problems.length > 0 ? 1 : 0;
} finally {
  await server.stop();
}
