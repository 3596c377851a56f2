#!/usr/bin/env node
// `npm start`: builds what changed since the last build (nothing, on a current checkout), then serves.
// Arguments are passed to `tessera serve` (`npm start -- --role api`).
import { buildIfStale } from './build-if-stale.mjs';

try {
  buildIfStale();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
process.argv = [process.argv[0], process.argv[1], 'serve', ...process.argv.slice(2)];
await import('../apps/api/bin/tessera.js');
