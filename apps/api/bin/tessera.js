#!/usr/bin/env node
// Runs the built CLI; in a source checkout that has not been built, runs the TypeScript through tsx.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const built = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
if (existsSync(built)) {
  await import(built);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(fileURLToPath(new URL('../src/cli.ts', import.meta.url)));
}
