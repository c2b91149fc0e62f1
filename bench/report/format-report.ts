/** The console report: one table of runs, the ratios, the targets. Numbers only; no colours. */
import { type Comparison, errorShare, type RunRow, type TargetCheck } from './targets.js';

/** Left-aligns the first column and right-aligns the others. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0)))
      .join('  ');
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

const integer = (value: number) => Math.round(value).toLocaleString('en-US');
const times = (value: number | null) => (value === null ? 'n/a' : `${value.toFixed(2)}x`);

function statusSummary(row: RunRow): string {
  const codes = Object.entries(row.load.statusCodes).map(([code, count]) => `${code}:${integer(count)}`);
  const errors = row.load.errors > 0 ? [`errors:${integer(row.load.errors)}`] : [];
  return [...codes, ...errors].join(' ') || 'none';
}

export function formatRuns(rows: readonly RunRow[]): string {
  const header = [
    'scenario / server',
    'body B',
    'req/s',
    'p50 ms',
    'p99 ms',
    'max ms',
    'requests',
    'statuses',
  ];
  const body = rows.map((row) => [
    `${row.scenario} / ${row.server}`,
    integer(row.bodyBytes),
    integer(row.load.requestsPerSecond),
    String(row.load.latencyP50Ms),
    String(row.load.latencyP99Ms),
    String(row.load.latencyMaxMs),
    integer(row.load.requests),
    `${statusSummary(row)}${errorShare(row.load) > 0 ? ' <- NOT 2xx' : ''}`,
  ]);
  return formatTable(header, body);
}

/** One line per scenario and server: its req/s over prism mock's and over bare node:http's. */
export function formatComparisons(comparisons: readonly Comparison[]): string {
  return formatTable(
    ['scenario / server', 'over prism', 'over bare'],
    comparisons.map((c) => [`${c.scenario} / ${c.server}`, times(c.overPrism), times(c.overBare)]),
  );
}

export function formatTargets(checks: readonly TargetCheck[]): string {
  return checks
    .map((check) => {
      if (check.value === null) return `NOT MEASURED  ${check.description}`;
      const value =
        check.unit === 'x' ? times(check.value) : `${Math.round(check.value * 10) / 10} ${check.unit}`;
      return `${check.met ? 'MET   ' : 'MISSED'}        ${check.description}: ${value}`;
    })
    .join('\n');
}
