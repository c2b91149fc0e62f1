#!/usr/bin/env node
/**
 * `npm run build` (and `npm pack`, through prepack): `dist/` emptied, `tsc -p tsconfig.build.json`, then
 * the files the compiled code reads (copy-assets.mjs).
 *
 * OFKIT_BUILD_TYPES_CHECKED=1 says that the same run checks the types already (`npm test` runs `tsc` over
 * the whole project in its lint step, beside the packaged test that packs): tsc then only emits
 * (`--noCheck`), the same files for about a quarter of the CPU. Nothing else sets it: a build alone always
 * checks.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const checked = process.env.OFKIT_BUILD_TYPES_CHECKED === '1';
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function run(args) {
  const ended = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (ended.status !== 0) process.exit(ended.status ?? 1);
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
run([tsc, '-p', 'tsconfig.build.json', ...(checked ? ['--noCheck'] : [])]);
run([join(root, 'scripts/copy-assets.mjs')]);
