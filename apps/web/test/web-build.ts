import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SDK_SOURCES = fileURLToPath(new URL('../../../packages/sdk/src', import.meta.url));
const DIST_INDEX = join(WEB_ROOT, 'dist', 'index.html');

function newestChange(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** True when dist/ is missing or older than a source the bundle is made of. */
export function isWebBuildStale(): boolean {
  if (!existsSync(DIST_INDEX)) return true;
  const built = statSync(DIST_INDEX).mtimeMs;
  const sources = ['src', 'index.html', 'vite.config.ts', 'package.json'].map((name) => join(WEB_ROOT, name));
  return Math.max(...[...sources, SDK_SOURCES].map(newestChange)) > built;
}

/**
 * Builds apps/web into dist/ when it is stale. The bundle is written beside dist/ and swapped in, so a
 * server of another test run never serves a half-written directory.
 */
export function ensureWebBuild(): void {
  if (!isWebBuildStale()) return;
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
