import type { FastifyInstance } from 'fastify';
import type pg from 'pg';

/**
 * Baseline routes for `npm run bench`, registered only with `TESSERA_BENCH_ROUTES=1`: the cost of the
 * HTTP stack alone (`constant`) and of one database round trip through the pool (`select1`); `memory`
 * answers `process.memoryUsage()` for `npm run bench:startup`. They are plain Fastify routes, so they
 * stay out of the OpenAPI document.
 */
export function registerBenchRoutes(app: FastifyInstance, pool: pg.Pool): void {
  const constant = { status: 'ok', service: 'tessera', bench: true };
  app.get('/__bench/constant', async () => constant);
  app.get('/__bench/select1', async () => {
    const result = await pool.query<{ value: number }>('SELECT 1 AS value');
    return { value: result.rows[0]?.value };
  });
  app.get('/__bench/memory', async () => process.memoryUsage());
}
