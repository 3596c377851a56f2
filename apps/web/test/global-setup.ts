import { ensureWebBuild } from './web-build.js';

/** Vitest global setup: the API serves apps/web/dist, so every test run starts from a fresh build. */
export function setup(): void {
  ensureWebBuild();
}
