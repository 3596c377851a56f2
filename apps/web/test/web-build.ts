import { spawnSync } from 'node:child_process';
import { renameSync, rmSync } from 'node:fs';
import { isStale, TARGETS } from '../../../scripts/build-if-stale.mjs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB_ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB_TARGET = TARGETS.find((target) => target.name === 'web')!;

/**
 * Builds apps/web into dist/ when it is missing or older than a source the bundle is made of (the rule
 * `npm start` uses, scripts/build-if-stale.mjs). The bundle is written beside dist/ and swapped in, so a
 * server of another test run never serves a half-written directory.
 */
export function ensureWebBuild(): void {
  if (!isStale(WEB_TARGET)) return;
  const vite = join(
    dirname(createRequire(join(WEB_ROOT, 'package.json')).resolve('vite/package.json')),
    'bin',
    'vite.js',
  );
  const scratch = join('build', `dist-${process.pid}`);
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', scratch], {
    cwd: WEB_ROOT,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    rmSync(join(WEB_ROOT, scratch), { recursive: true, force: true });
    throw new Error(`web build failed:\n${result.stdout}\n${result.stderr}`);
  }
  rmSync(join(WEB_ROOT, 'dist'), { recursive: true, force: true });
  renameSync(join(WEB_ROOT, scratch), join(WEB_ROOT, 'dist'));
}
