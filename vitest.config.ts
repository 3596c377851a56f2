import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.{ts,tsx}', 'apps/*/test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // The API serves apps/web/dist (platform and browser tests): build it first when stale.
    // Test servers start from one migrated database (apps/api/test/database-template.ts).
    globalSetup: ['apps/web/test/global-setup.ts', 'apps/api/test/database-template.ts'],
    // Component tests wait for what they expect long enough for a busy machine (apps/web/src/test/dom-setup.ts).
    setupFiles: ['apps/web/src/test/dom-setup.ts'],
    pool: 'forks',
    // Vitest's default (cores - 1) runs one file at a time on a 2-core machine, leaving a core idle while a
    // test waits on the database, the browser or the job queue: two files at once at least.
    // TEST_WORKERS overrides it.
    maxWorkers: Number(process.env.TEST_WORKERS) || Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { NODE_ENV: 'test' },
  },
});
