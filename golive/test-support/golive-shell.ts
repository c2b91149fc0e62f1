/**
 * A temporary folder where `npx ofkit golive ...` runs as a user types it (an `npx` that runs its
 * arguments, an `ofkit` that is this repository's launcher), for the command's tests.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LAUNCHER } from '../../scripts/test-support/cli-process.js';
import type { GoliveBundle } from '../src/index.js';

export interface GoliveShell {
  readonly dir: string;
  /** A shell line in the folder: its exit code and output. */
  run(line: string): { code: number; stdout: string; stderr: string };
  /** The bundle a run wrote with `--out OUT` (its golive.json). */
  bundle(out: string): GoliveBundle;
  remove(): void;
}

/** One item of a bundle's checklist. */
export const itemOf = (bundle: GoliveBundle, id: string) => bundle.items.find((entry) => entry.item === id);

export function goliveShell(): GoliveShell {
  const dir = mkdtempSync(join(tmpdir(), 'ofkit-golive-'));
  mkdirSync(join(dir, '.bin'));
  writeFileSync(join(dir, '.bin/npx'), '#!/bin/sh\nexec "$@"\n');
  writeFileSync(join(dir, '.bin/ofkit'), `#!/bin/sh\nexec "${process.execPath}" "${LAUNCHER}" "$@"\n`);
  for (const name of ['npx', 'ofkit']) chmodSync(join(dir, '.bin', name), 0o755);
  const env = { ...process.env, PATH: `${join(dir, '.bin')}:${process.env.PATH}` };
  return {
    dir,
    run(line) {
      try {
        const stdout = execFileSync('sh', ['-c', line], { cwd: dir, env, encoding: 'utf8', stdio: 'pipe' });
        return { code: 0, stdout, stderr: '' };
      } catch (error) {
        const failed = error as { status: number; stdout: string; stderr: string };
        return { code: failed.status, stdout: failed.stdout, stderr: failed.stderr };
      }
    },
    bundle: (out) => JSON.parse(readFileSync(join(dir, out, 'golive.json'), 'utf8')) as GoliveBundle,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
