import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['apps/*/src/**/*.test.{ts,tsx}', 'apps/*/test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // The API serves apps/web/dist (platform and browser tests): build it first when stale.
    // Test servers start from one migrated database (apps/api/test/database-template.ts).
    globalSetup: ['apps/web/test/global-setup.ts', 'apps/api/test/database-template.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 120_000,
    env: { NODE_ENV: 'test' },
  },
});
