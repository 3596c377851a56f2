import { defineConfig } from 'vitest/config';

/** `npm run test:cluster` only (not part of `npm test`): apps/api/test/cluster/*.run.ts. */
export default defineConfig({
  test: {
    include: ['apps/api/test/cluster/*.run.ts'],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
