// Builds only the parts of the project whose sources changed since their last build, so `npm start` on a
// current checkout goes straight to the server. `npm run build` (CI, releases) still builds everything.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * A part of the project: the paths its build reads, the file whose modification time says when it was
 * last built, and the command that builds it (run in `cwd`).
 * @typedef {{ name: string, cwd: string, sources: string[], stamp: string, command: string[], writesStamp?: boolean }} BuildTarget
 */

/** @type {BuildTarget[]} */
export const TARGETS = [
  {
    name: 'api',
    cwd: join(ROOT, 'apps/api'),
    sources: ['apps/api/src', 'apps/api/tsconfig.build.json', 'apps/api/package.json', 'tsconfig.base.json'],
    stamp: 'apps/api/dist/.build-stamp',
    command: ['npm', 'run', 'build', '--silent'],
  },
  {
    name: 'sdk',
    cwd: join(ROOT, 'packages/sdk'),
    sources: [
      'packages/sdk/src',
      'packages/sdk/tsconfig.build.json',
      'packages/sdk/package.json',
      'tsconfig.base.json',
    ],
    stamp: 'packages/sdk/dist/.build-stamp',
    command: ['npm', 'run', 'build', '--silent'],
  },
  {
    // The web build compiles the SDK from its sources (vite.config.ts) and swaps dist/ in whole.
    name: 'web',
    cwd: join(ROOT, 'apps/web'),
    sources: [
      'apps/web/src',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/package.json',
      'packages/sdk/src',
    ],
    stamp: 'apps/web/dist/index.html',
    command: ['npm', 'run', 'build', '--silent'],
    writesStamp: true,
  },
];

/** The latest modification time under a path (0 when it does not exist). */
export function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, entry)));
  return newest;
}

/** True when the target was never built or a source changed after its stamp. */
export function isStale(target, root = ROOT) {
  const stamp = join(root, target.stamp);
  if (!existsSync(stamp)) return true;
  const built = statSync(stamp).mtimeMs;
  return target.sources.some((source) => newestChange(join(root, source)) > built);
}

/**
 * Builds each stale target in order and stamps it. Returns the names built. A failed build throws with its
 * output, and leaves the stamp as it was, so the next start tries again.
 */
export function buildIfStale(targets = TARGETS, root = ROOT, log = (line) => console.log(line)) {
  const built = [];
  for (const target of targets) {
    if (!isStale(target, root)) continue;
    log(`building ${target.name}…`);
    const startedAt = Date.now();
    const [command, ...args] = target.command;
    const result = spawnSync(command, args, { cwd: target.cwd, stdio: 'inherit' });
    if (result.status !== 0)
      throw new Error(`${target.name}: build failed (${result.error?.message ?? `exit ${result.status}`})`);
    if (!target.writesStamp) {
      // Dated when the build started: a source saved during the build still makes the next start rebuild.
      const stamp = join(root, target.stamp);
      writeFileSync(stamp, `${new Date(startedAt).toISOString()}\n`);
      utimesSync(stamp, startedAt / 1000, startedAt / 1000);
    }
    built.push(target.name);
  }
  return built;
}
