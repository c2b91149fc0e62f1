#!/usr/bin/env node
/**
 * The build's second step (scripts/build.mjs, after `tsc -p tsconfig.build.json`): copies every file that is not
 * TypeScript from the folders the compiled code reads at run time into `dist/`, at the same relative
 * place, so that code which finds a file by `import.meta.dirname` (the bundled documents, the suite's
 * config schema, the reference pacts, a dashboard's static files) finds it from `dist/` too. Then writes
 * the bundled documents as YAML beside their JSON (`ofkit/openapi.yaml`).
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { stringify } from 'yaml';

const root = resolve(import.meta.dirname, '..');
const dist = join(root, 'dist');
/** Folders whose non-TypeScript files the compiled code may read. Add a folder here, not a file. */
const ASSET_ROOTS = ['simulator/src', 'openapi/generated', 'property-tests', 'contracts/pacts', 'golive/src'];
/** Never shipped: tests and their fixtures, notes for contributors. */
const SKIPPED = [/\.ts$/, /\.md$/, /(^|\/)tests?\//, /(^|\/)fixtures\/type-errors\//];

function* files(folder) {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let copied = 0;
for (const assetRoot of ASSET_ROOTS) {
  const folder = join(root, assetRoot);
  if (!existsSync(folder)) continue;
  for (const path of files(folder)) {
    const inProject = relative(root, path);
    if (SKIPPED.some((pattern) => pattern.test(inProject))) continue;
    cpSync(path, join(dist, inProject));
    copied += 1;
  }
}

for (const name of ['openapi', 'admin']) {
  const json = join(dist, 'openapi/generated', `${name}.json`);
  const yaml = join(dirname(json), `${name}.yaml`);
  writeFileSync(
    yaml,
    stringify(JSON.parse(readFileSync(json, 'utf8')), { lineWidth: 0, aliasDuplicateObjects: false }),
  );
}
console.log(`copy-assets: ${copied} files into dist/, bundled YAML written`);
