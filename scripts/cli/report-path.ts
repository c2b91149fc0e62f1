/**
 * A report path is checked before a command does its work: a report that cannot be written is a usage
 * error (one line, exit code 2) found at once, never a stack trace after a long run that CI would read
 * as "violations found". Nothing is created by the check; writeReport makes the folders afterwards.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from './command-line.js';

type Stat = ReturnType<typeof statSync>;

function stat(path: string): Stat | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why `path` cannot be written as a report (a sentence), or undefined when it can. */
export function reportPathProblem(path: string): string | undefined {
  const full = resolve(path);
  const existing = stat(full);
  if (existing?.isDirectory()) return `${path} is a folder`;
  if (existing) return writable(full) ? undefined : `${path} is not writable`;
  // The nearest ancestor that exists must be a writable folder: the missing ones are created in it.
  for (let folder = dirname(full); ; folder = dirname(folder)) {
    const found = stat(folder);
    if (found && !found.isDirectory()) return `${folder} is a file, not a folder`;
    if (found) return writable(folder) ? undefined : `the folder ${folder} is not writable`;
    if (dirname(folder) === folder) return `no folder of ${path} exists`;
  }
}

/**
 * Every report of `flag` (`--report`, `--judge-report`) can be written and is named once; else a
 * UsageError of one line, thrown before any work.
 */
export function checkReportPaths(
  flag: string,
  reports: readonly { readonly kind: string; readonly path: string }[],
): void {
  const seen = new Set<string>();
  for (const report of reports) {
    const problem = reportPathProblem(report.path);
    if (problem) throw new UsageError(`${flag} ${report.kind}:${report.path} cannot be written: ${problem}`);
    if (seen.has(report.path)) throw new UsageError(`${flag} names ${report.path} twice`);
    seen.add(report.path);
  }
}
