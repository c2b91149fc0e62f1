/** The console report: a table (rule, status, runs, time), then each failure with its reproduction. */

import type { Coverage } from '../runner/coverage.js';
import type { RuleResult } from '../runner/run-rule.js';
import type { SuiteResult } from '../runner/run-suite.js';
import { toCurlScript } from './curl-commands.js';
import { type ReplayContext, replayCommand } from './replay-command.js';

const NOTE_WIDTH = 70;
const COUNTEREXAMPLE_CHARS = 1500;
const MAX_UNCOVERED_LINES = 25;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function note(result: RuleResult): string {
  const text = result.reason ?? result.failure?.message ?? result.notes[0] ?? '';
  const line = text.split('\n')[0] ?? '';
  return line.length > NOTE_WIDTH ? `${line.slice(0, NOTE_WIDTH - 3)}...` : line;
}

/** The table of every rule, and the totals. */
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
  const count = (status: string) => suite.results.filter((r) => r.status === status).length;
  const totals = `${suite.results.length} rules: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped, ${count('inconclusive')} inconclusive in ${seconds(suite.durationMs)} (seed ${suite.seed})`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line), '', totals].join('\n');
}

function stringify(value: unknown): string {
  const text = JSON.stringify(value, null, 2) ?? 'undefined';
  return text.length > COUNTEREXAMPLE_CHARS ? `${text.slice(0, COUNTEREXAMPLE_CHARS)}\n...` : text;
}

/** One failure: what broke, the seeds, the replay command, the counterexample and its curl commands. */
export function renderFailure(result: RuleResult, context: ReplayContext): string {
  const failure = result.failure;
  if (!failure) return '';
  return [
    `FAILED ${result.title}`,
    `  ${failure.message.replaceAll('\n', '\n  ')}`,
    `  seed ${context.seed} (rule seed ${failure.seed}), ${result.runs} runs, ${failure.shrinks} shrinks`,
    `  replay: ${replayCommand(context, result.id)}`,
    `  replay the shrunk case only: ${replayCommand(context, result.id, failure.path)}`,
    '  counterexample:',
    `    ${stringify(failure.counterexample).replaceAll('\n', '\n    ')}`,
    '  as curl (export OFKIT_KEY and OFKIT_SECRET first):',
    `    ${toCurlScript(failure.exchanges).replaceAll('\n', '\n    ')}`,
  ].join('\n');
}

/** The coverage summary: totals, then every operation that never showed a success status. */
export function renderCoverage(coverage: Coverage): string {
  const { operations, statuses } = coverage;
  const lines = [
    `coverage: operations ${operations.covered}/${operations.total} (${operations.percent}%) exhibited a success status; statuses ${statuses.covered}/${statuses.total} (${statuses.percent}%) exhibited with a valid body`,
  ];
  const uncovered = coverage.perOperation.filter((entry) => !entry.success);
  for (const op of uncovered.slice(0, MAX_UNCOVERED_LINES)) {
    const seen = Object.entries(op.exhibited).map(([status, n]) => `${status}x${n}`);
    const invalid = Object.entries(op.invalid).map(([status, n]) => `${status}x${n}`);
    lines.push(
      `  no success: ${op.operationId} (${op.method} ${op.path}) seen ${seen.join(', ') || 'nothing valid'}${invalid.length > 0 ? `; invalid or undocumented ${invalid.join(', ')}` : ''}`,
    );
  }
  if (uncovered.length > MAX_UNCOVERED_LINES) {
    lines.push(
      `  ... and ${uncovered.length - MAX_UNCOVERED_LINES} more (the JSON report lists every operation)`,
    );
  }
  return lines.join('\n');
}

/** The whole console report. */
export function renderConsoleReport(suite: SuiteResult, context: ReplayContext): string {
  const failures = suite.results.filter((result) => result.status === 'failed');
  return [
    renderTable(suite),
    renderCoverage(suite.coverage),
    ...failures.map((result) => `\n${renderFailure(result, context)}`),
  ].join('\n');
}
