/**
 * The command line compiled once for a test lane. The development launcher (scripts/ofkit.js) compiles
 * TypeScript through tsx's loader hooks on every start, about a second of CPU per `ofkit` child; a lane
 * that starts dozens of them pays minutes. Here esbuild (the compiler tsx uses) turns every TypeScript
 * file of the sources into JavaScript once, at the same relative place, beside a copy of every other file
 * of those folders and of package.json, so the compiled code finds what it reads by `import.meta.dirname`
 * as the sources do, and its packages in the repository's node_modules (the folder is inside it).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { buildSync } from 'esbuild';
import { isRunning } from '../cli/process-tree.js';

const REPO = resolve(import.meta.dirname, '../..');
/** The folders whose code the command line runs. */
const SOURCE_ROOTS = ['simulator', 'openapi', 'bridge', 'golive', 'property-tests', 'scripts', 'contracts'];
const CACHE = join(REPO, 'node_modules/.cache/ofkit-test-cli');

export interface CompiledCli {
  readonly dir: string;
  /** The compiled scripts/cli/main.js: `node LAUNCHER <command>` runs `ofkit <command>`. */
  readonly launcher: string;
  remove(): void;
}

function* filesOf(folder: string): Generator<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* filesOf(path);
    } else if (entry.isFile()) yield path;
  }
}

/** Builds whose lane was stopped before it could remove them (named by their process's PID). */
function removeAbandoned(): void {
  for (const name of readdirSync(CACHE)) {
    const pid = Number(/^build-(\d+)-/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && !isRunning(pid))
      rmSync(join(CACHE, name), { recursive: true, force: true });
  }
}

export function compileCli(): CompiledCli {
  mkdirSync(CACHE, { recursive: true });
  removeAbandoned();
  const dir = mkdtempSync(join(CACHE, `build-${process.pid}-`));
  const sources: string[] = [];
  for (const root of SOURCE_ROOTS)
    for (const path of filesOf(join(REPO, root))) {
      if (path.endsWith('.ts') && !path.endsWith('.d.ts')) {
        if (!path.endsWith('.test.ts')) sources.push(path);
      } else {
        const copy = join(dir, relative(REPO, path));
        mkdirSync(dirname(copy), { recursive: true });
        copyFileSync(path, copy);
      }
    }
  copyFileSync(join(REPO, 'package.json'), join(dir, 'package.json'));
  buildSync({
    entryPoints: sources,
    outdir: dir,
    outbase: REPO,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    logLevel: 'error',
  });
  return {
    dir,
    launcher: join(dir, 'scripts/cli/main.js'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
