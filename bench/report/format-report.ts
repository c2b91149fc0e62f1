/** The console report: one table of runs, CPU per request beside bare's and the peers', the targets. Numbers only; no colours. */
import { TARGET_SCENARIO } from '../load/scenarios.js';
import {
  comparedServer,
  errorShare,
  PEER_NAMES,
  type RunRow,
  ratio,
  rowOf,
  type TargetCheck,
} from './targets.js';

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
const micro = (value: number | null | undefined) => (value == null ? 'n/a' : value.toFixed(0));

function statusSummary(row: RunRow): string {
  const codes = Object.entries(row.load.statusCodes).map(([code, count]) => `${code}:${integer(count)}`);
  const errors = row.load.errors > 0 ? [`errors:${integer(row.load.errors)}`] : [];
  return [...codes, ...errors].join(' ') || 'none';
}

/** Every run: CPU per request (median, then each round's), throughput, latencies, statuses. */
export function formatRuns(rows: readonly RunRow[]): string {
  const header = [
    'scenario / server',
    'body B',
    'CPU us/req',
    'rounds us',
    'redis us',
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
    micro(row.cpuUs),
    row.cpuUsByRound.map(micro).join(' '),
    row.redisCpuUs === undefined ? '' : micro(row.redisCpuUs),
    integer(row.load.requestsPerSecond),
    String(row.load.latencyP50Ms),
    String(row.load.latencyP99Ms),
    String(row.load.latencyMaxMs),
    integer(row.load.requests),
    `${statusSummary(row)}${errorShare(row.load) > 0 ? ' <- NOT 2xx' : ''}`,
  ]);
  return formatTable(header, body);
}

/** Each scenario's measured server over bare on the same bytes: CPU per request and throughput. */
export function formatOverBare(rows: readonly RunRow[]): string {
  const measured = rows.filter(
    (row) => row.server !== 'bare' && !PEER_NAMES.some((peer) => peer === row.server),
  );
  return formatTable(
    ['scenario / server', 'CPU/req over bare', 'req/s over bare'],
    measured.map((row) => {
      const bare = rowOf(rows, 'bare', row.scenario);
      return [
        `${row.scenario} / ${row.server}`,
        times(ratio(row.cpuUs, bare?.cpuUs)),
        times(ratio(row.load.requestsPerSecond, bare?.load.requestsPerSecond)),
      ];
    }),
  );
}

/** The page on the simulator and on each peer: bytes, CPU per request, and the simulator's over the peer's. */
export function formatPeers(rows: readonly RunRow[], notRun: Readonly<Record<string, string>>): string {
  const page = TARGET_SCENARIO;
  const ours = rowOf(rows, comparedServer(page), page);
  const lines = PEER_NAMES.map((peer) => {
    const theirs = rowOf(rows, peer, page);
    if (theirs === undefined) return [peer, 'n/a', 'n/a', 'n/a', `not run: ${notRun[peer] ?? 'unknown'}`];
    return [
      peer,
      integer(theirs.bodyBytes),
      micro(theirs.cpuUs),
      integer(theirs.load.requestsPerSecond),
      times(ratio(ours?.cpuUs, theirs.cpuUs)),
    ];
  });
  const simulator = ours
    ? [['simulator', integer(ours.bodyBytes), micro(ours.cpuUs), integer(ours.load.requestsPerSecond), '']]
    : [];
  return formatTable(
    ['page of 100 records', 'body B', 'CPU us/req', 'req/s', 'simulator CPU over it'],
    [...simulator, ...lines],
  );
}

export function formatTargets(checks: readonly TargetCheck[]): string {
  return checks
    .map((check) => {
      if (check.value === null) return `NOT MEASURED  ${check.description}`;
      const value =
        check.unit === 'x' ? times(check.value) : `${Math.round(check.value * 100) / 100} ${check.unit}`;
      if (check.inconclusive !== undefined)
        return `INCONCLUSIVE  ${check.description}: ${value} (${check.met ? 'met' : 'missed'} by the medians; ${check.inconclusive})`;
      return `${check.met ? 'MET   ' : 'MISSED'}        ${check.description}: ${value}`;
    })
    .join('\n');
}
