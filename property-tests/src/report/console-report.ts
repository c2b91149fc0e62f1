/**
 * The console report: a table (rule, status, runs, time), the headline (verdicts and coverage together),
 * the operations' verdicts, then each failure with its reproduction after one `export` line.
 */

import type { Coverage } from '../runner/coverage.js';
import { RULE_STATUSES, type RuleResult } from '../runner/run-rule.js';
import type { SuiteResult } from '../runner/run-suite.js';
import { toCurlScript } from './curl-commands.js';
import { exportLine } from './key-exports.js';
import { type OperationEntry, operationEntries, operationsLine } from './operation-summary.js';
import { bringBack, type ReplayContext, replayCommand } from './replay-command.js';
import { scopeHint, scopeLine } from './scope-lines.js';

const NOTE_WIDTH = 70;
const COUNTEREXAMPLE_CHARS = 1500;
const MAX_OPERATION_LINES = 25;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function note(result: RuleResult): string {
  const text = result.reason ?? result.failure?.message ?? result.notes[0] ?? '';
  const line = text.split('\n')[0] ?? '';
  return line.length > NOTE_WIDTH ? `${line.slice(0, NOTE_WIDTH - 3)}...` : line;
}

/** `211 rules: 200 passed, 0 failed, ...; coverage: operations 147/147 (100%), statuses ...`. */
export function headline(suite: SuiteResult): string {
  const count = (status: string) => suite.results.filter((r) => r.status === status).length;
  const statuses = RULE_STATUSES.filter(
    (status) => status !== 'skipped (environment)' || count(status) > 0,
  ).map((status) => `${count(status)} ${status}`);
  const { operations, statuses: shown } = suite.coverage;
  const coverage = `coverage: operations ${operations.covered}/${operations.total} (${operations.percent}%), statuses ${shown.covered}/${shown.total} (${shown.percent}%)`;
  return `${suite.results.length} rules: ${statuses.join(', ')}; ${coverage} in ${seconds(suite.durationMs)} (seed ${suite.seed})`;
}

/** The table of every rule, and the headline. */
export function renderTable(suite: SuiteResult): string {
  const rows = suite.results.map((r) => [
    r.id,
    r.status,
    String(r.runs),
    String(r.reached),
    seconds(r.durationMs),
    note(r),
  ]);
  // reached: runs that got to the rule's assertion (the others ended on a precondition).
  const header = ['rule', 'status', 'runs', 'reached', 'time', 'note'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), '', headline(suite)].join(
    '\n',
  );
}

function stringify(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  return text.length > COUNTEREXAMPLE_CHARS ? `${text.slice(0, COUNTEREXAMPLE_CHARS)}\n...` : text;
}

/**
 * One failure: what broke, the seeds, the replay command, the counterexample and its curl commands.
 * `withExports`: the `export` line of the variables it uses first (a JUnit case is read on its own).
 */
export function renderFailure(result: RuleResult, context: ReplayContext, withExports = false): string {
  const failure = result.failure;
  if (!failure) return '';
  const body = [
    `FAILED ${result.title}`,
    `  ${failure.message.replaceAll('\n', '\n  ')}`,
    `  seed ${context.seed} (rule seed ${failure.seed}), ${result.runs} runs, ${failure.shrinks} shrinks`,
    `  replay: ${replayCommand(context, result.id)}`,
    `  replay the shrunk case only: ${replayCommand(context, result.id, failure.path)}`,
    '  counterexample:',
    `    ${stringify(failure.counterexample).replaceAll('\n', '\n    ')}`,
    '  as curl:',
    `    ${toCurlScript(failure.exchanges).replaceAll('\n', '\n    ')}`,
  ].join('\n');
  if (!withExports) return body;
  return [reproductionPreamble(body, context), body].filter(Boolean).join('\n');
}

/** Before the failures: how to bring the target back, and the one `export` line their commands need. */
function reproductionPreamble(failures: string, context: ReplayContext): string {
  const exports = exportLine(failures, context.keyValues);
  return [
    ...(bringBack(context) ? [bringBack(context)!] : []),
    ...(exports ? ['Set the key variables the commands below use, once:', `  ${exports}`] : []),
  ].join('\n');
}

function answeredLine(entry: OperationEntry, coverage: Coverage): string {
  const op = coverage.perOperation.find((c) => c.operationId === entry.operationId);
  const where = op ? ` (${op.method} ${op.path})` : '';
  return `  ${entry.verdict}: ${entry.operationId}${where}: ${entry.reason}`;
}

/**
 * The coverage: the operations' verdicts (for the SCHEMA rows that ran), then every operation that
 * never showed a success status. `--rules` without SCHEMA rows prints the totals only.
 */
export function renderCoverage(suite: SuiteResult): string {
  const entries = operationEntries(suite.results);
  if (entries.length === 0) {
    return 'operations: no SCHEMA row selected (--rules): the coverage above counts what the rules asked for exercised';
  }
  const lines = [operationsLine(entries, suite.environment)];
  const listed = entries.filter((entry) => entry.verdict !== 'passed' && entry.verdict !== 'unavailable');
  for (const entry of listed.slice(0, MAX_OPERATION_LINES)) lines.push(answeredLine(entry, suite.coverage));
  if (listed.length > MAX_OPERATION_LINES) {
    lines.push(
      `  ... and ${listed.length - MAX_OPERATION_LINES} more (the JSON report lists every operation)`,
    );
  }
  return lines.join('\n');
}

/** The whole console report. */
export function renderConsoleReport(suite: SuiteResult, context: ReplayContext): string {
  const failures = suite.results
    .filter((result) => result.status === 'failed')
    .map((result) => renderFailure(result, context));
  const preamble = failures.length > 0 ? reproductionPreamble(failures.join('\n'), context) : '';
  const scope = [scopeLine(suite), scopeHint(suite)].filter((line) => line !== undefined);
  return [
    renderTable(suite),
    ...scope,
    renderCoverage(suite),
    ...(preamble ? [`\n${preamble}`] : []),
    ...failures.map((text) => `\n${text}`),
  ].join('\n');
}
