import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIfStale, isStale, type BuildTarget } from '../../../scripts/build-if-stale.mjs';

// A project of one part whose "build" appends a line to out/log, so each test can count the builds.
describe('building only what changed (npm start)', () => {
  let root: string;
  let target: BuildTarget;
  const builds = () =>
    readFileSync(join(root, 'out', 'log'), 'utf8')
      .split('\n')
      .filter(Boolean).length;
  const touch = (path: string, secondsFromNow: number) => {
    const at = Date.now() / 1000 + secondsFromNow;
    utimesSync(join(root, path), at, at);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'tessera-build-'));
    mkdirSync(join(root, 'src'));
    mkdirSync(join(root, 'out'));
    writeFileSync(join(root, 'src', 'a.ts'), 'export {};\n');
    target = {
      name: 'part',
      cwd: root,
      sources: ['src', 'config.json'],
      stamp: 'out/.build-stamp',
      command: [process.execPath, '-e', "require('fs').appendFileSync('out/log', 'built\\n')"],
    };
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds a part never built, then not again while its sources are unchanged', () => {
    expect(isStale(target, root)).toBe(true);
    expect(buildIfStale([target], root, () => {})).toEqual(['part']);
    expect(isStale(target, root)).toBe(false);
    expect(buildIfStale([target], root, () => {})).toEqual([]);
    expect(builds()).toBe(1);
  });

  it('rebuilds when a source file, a new file in a source folder or a listed file changes', () => {
    buildIfStale([target], root, () => {});
    touch('src/a.ts', 5);
    expect(buildIfStale([target], root, () => {})).toEqual(['part']);

    writeFileSync(join(root, 'src', 'b.ts'), 'export {};\n');
    touch('src/b.ts', 10);
    expect(buildIfStale([target], root, () => {})).toEqual(['part']);

    writeFileSync(join(root, 'config.json'), '{}\n');
    touch('config.json', 15);
    expect(buildIfStale([target], root, () => {})).toEqual(['part']);
    expect(builds()).toBe(4);
  });

  it('keeps a failed part stale, so the next start builds it again', () => {
    const failing = { ...target, command: [process.execPath, '-e', 'process.exit(3)'] };
    expect(() => buildIfStale([failing], root, () => {})).toThrow('part: build failed (exit 3)');
    expect(isStale(failing, root)).toBe(true);
  });
});
