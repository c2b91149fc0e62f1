/** Runs `ofkit check` in process with its console captured: the exit code, stdout and stderr. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { vi } from 'vitest';
import { check } from '../../scripts/cli/check.js';
import type { SuiteResult } from '../src/runner/run-suite.js';

export interface CheckOutput {
  code: number;
  out: string;
  err: string;
}

export async function runCheck(argv: string[]): Promise<CheckOutput> {
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((text: string) => out.push(String(text)));
  const error = vi.spyOn(console, 'error').mockImplementation((text: string) => err.push(String(text)));
  try {
    const code = await check(argv);
    return { code, out: out.join('\n'), err: err.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** The JSON report of a run (the suite's result as `ofkit check` writes it), with the exit code and stdout. */
export type CheckReport = SuiteResult & { code: number; out: string };

/**
 * `ofkit check URL --strict --min-coverage operations=100` (the CI recipe of examples/ci), with a fixed
 * seed and two random runs per rule; the JSON report it wrote, read back.
 */
export async function runCiRecipe(baseUrl: string, extra: string[] = []): Promise<CheckReport> {
  const report = join(mkdtempSync(join(tmpdir(), 'ofkit-ci-recipe-')), 'conformance.json');
  const { code, out } = await runCheck([
    baseUrl,
    ...['--strict', '--min-coverage', 'operations=100', '--report', `json:${report}`],
    ...['--seed', '1414', '--runs', '2', ...extra],
  ]);
  const json = JSON.parse(readFileSync(report, 'utf8'));
  return { ...json, results: json.rules, code, out };
}
