/**
 * The recording proxy's cost: a page of 100 transactions read at a fixed 200 requests/s straight from
 * the simulator, through a bare node:http pipe (the floor any proxy meets on this machine), through the
 * proxy forwarding only (no checks, no recording: what the proxy's own thread costs), and through
 * `ofkit record` (recording to a temporary HAR file), each a child process.
 * A shared virtual machine's tail latency wanders by several milliseconds from one second to the next,
 * so the four are measured in many short rounds, in a rotating order, and their latencies pooled: all
 * four meet the same machine. After each round through `ofkit record` its checks catch up before the
 * next round starts (their work while the round runs counts; a backlog must not slow the others). The
 * latency the proxy adds is the difference of the pooled quantiles. Targets (report/targets.ts): the
 * p99 `ofkit record` adds at most 1 ms above what the bare pipe adds in the same run; the recording's
 * own CPU per page (its process's CPU per page less the proxy's forwarding only) at most 2 ms.
 * CPU per page counts the measured rounds only: each proxy's process (every thread) is read from
 * `/proc/<pid>/stat` before and after each of its rounds, the recorder's after its checks caught up.
 * Start-up and the warm-up are left out, and the line prints the warm-up's CPU per page beside them:
 * the four are warmed up together for WARM_UP_SECONDS. A proxy's CPU per page falls for some 15 s at
 * this rate, while V8 still compiles its code (its compiler threads busy, its own thread running code
 * not yet optimized): in 2-second windows from the first second on, the proxy forwarding only went
 * 1.05 -> 0.93 -> 0.85 -> 0.72 -> 0.60 -> 0.53 ms and then held at 0.47-0.53; `ofkit record` 3.33 ->
 * 3.17 -> 3.00 -> 2.95 -> 2.80 -> 2.75 -> 2.60 and then held at 2.52-2.77. Measured from the first
 * second, the rounds counted that compilation, paid once per process, as a cost of every page. Where
 * `/proc` cannot be read, each proxy's own report of its whole life is used, and the line says so.
 * Alone: `tsx bench/proxy/measure-proxy-latency.ts [--seconds N]` (N: seconds per target in all);
 * the recording's CPU per page alone, without a proxy: `recording-cpu.ts`.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { RECORDER_NODE_FLAGS } from '../../bridge/src/recording/recorder.js';
import { processCpuMs } from '../load/cpu-time.js';
import { TARGETS } from '../report/targets.js';
import { startChild, stopAllChildren, tsxArgs } from '../servers/child-process.js';
import { BASIC_AUTH, TRANSACTIONS } from '../servers/seed-data.js';
import { quantile, runFixedRate } from './fixed-rate-load.js';

export const PROXY_RATE = 200;
/** The p99 `ofkit record` adds may pass the bare pipe's by this much (ms). */
const P99_OVER_PIPE_MS = TARGETS.recorderP99OverPipeMs;
/** Rounds per target: short rounds in a rotating order let the three meet the same machine. */
const ROUNDS = 6;
const MIN_SECONDS_PER_ROUND = 2;
/** All four at once, at the fixed rate each: the proxies' CPU per page settles within this (see above). */
const WARM_UP_SECONDS = 15;
/**
 * The simulator alone must keep the rate for a difference to mean anything: above this p99 the
 * machine is saturated (a shared machine, other work) and the verdict is inconclusive, never met.
 */
const SATURATED_P99_MS = 50;

interface Quantiles {
  p50: number;
  p99: number;
  requests: number;
}

export interface ProxyLatencyReport {
  rate: number;
  secondsPerRound: number;
  rounds: number;
  direct: Quantiles;
  /** A bare node:http pipe: what any proxy adds here. */
  pipe: Quantiles;
  forwardOnly: Quantiles;
  recorded: Quantiles;
  /** What each proxy adds to the simulator's quantiles. */
  added: {
    pipe: { p50: number; p99: number };
    forwardOnly: { p50: number; p99: number };
    recorded: { p50: number; p99: number };
  };
  failures: number;
  /** Per row that had any, what its failures were (`status 502 x1`, `ECONNRESET x2`). */
  failuresByRow: Record<string, string[]>;
  /** The longest time the recording's checks took to catch up after a round (ms). */
  catchUpMs: number;
  harBytes: number;
  loadAverage: number[];
  /** CPU milliseconds per request each proxy process used (both threads of the recorder), when reported. */
  cpuPerRequestMs: {
    forwardOnly?: number;
    recorded?: number;
    recordedCaughtUp?: boolean;
    /** 'rounds': the measured rounds only (`/proc`); 'lifetime': each process's whole life, start-up included. */
    counted?: 'rounds' | 'lifetime';
    /** The same over the warm-up (`/proc`), left out of the figures above. */
    warmUp?: { seconds: number; forwardOnly?: number; recorded?: number };
  };
  verdict: 'met' | 'missed' | 'inconclusive';
}

const round2 = (value: number) => Math.round(value * 100) / 100;
const of = (latencies: number[]): Quantiles => ({
  p50: round2(quantile(latencies, 0.5)),
  p99: round2(quantile(latencies, 0.99)),
  requests: latencies.length,
});
const minus = (a: Quantiles, b: Quantiles) => ({ p50: round2(a.p50 - b.p50), p99: round2(a.p99 - b.p99) });

async function startTargets(har: string) {
  const spawnTsx = (name: string, entry: string, extra: string[] = [], nodeFlags: readonly string[] = []) =>
    startChild({
      name,
      command: process.execPath,
      args: [...tsxArgs(entry, nodeFlags), ...extra],
      collectReports: true,
    });
  // The upstream all four share runs without V8's memory reducer: some 25 s after its start, once the
  // warm-up's allocations ease, the reducer compacted its whole heap in one pause of 15-20 ms, stalling
  // every request in flight through whichever target's round it fell in (a page through a proxy took
  // 17-20 ms; the proxies' own collections were 1-6 ms). It is the upstream's, added by no proxy.
  const simulator = await spawnTsx(
    'simulator',
    'bench/servers/simulator-server.ts',
    [],
    ['--no-memory-reducer'],
  );
  const pipe = await spawnTsx('a bare node:http pipe', 'bench/proxy/pipe-proxy-server.ts', [
    '--upstream',
    simulator.url,
  ]);
  // Both proxies run with the flags `ofkit record` and `ofkit proxy` give their own process.
  const forwardOnly = await spawnTsx(
    'proxy, forwarding only',
    'bench/proxy/forward-only-server.ts',
    ['--upstream', simulator.url],
    RECORDER_NODE_FLAGS,
  );
  const recorder = await spawnTsx(
    'ofkit record',
    'bench/proxy/recorder-server.ts',
    ['--upstream', simulator.url, '--out', har],
    RECORDER_NODE_FLAGS,
  );
  return { simulator, pipe, forwardOnly, recorder };
}

/** Waits until the recorder has checked and recorded every exchange so far; how long it took (ms). */
async function caughtUp(idleUrl: string): Promise<number> {
  const started = performance.now();
  const answer = await fetch(idleUrl, { signal: AbortSignal.timeout(60_000) });
  await answer.text();
  return performance.now() - started;
}

export async function measureProxyLatency(secondsInAll: number): Promise<ProxyLatencyReport> {
  const secondsPerRound = Math.max(MIN_SECONDS_PER_ROUND, Math.round(secondsInAll / ROUNDS));
  const folder = await mkdtemp(join(tmpdir(), 'ofkit-bench-proxy-'));
  const har = join(folder, 'bench.har');
  try {
    const { simulator, pipe, forwardOnly, recorder } = await startTargets(har);
    const path = `${TRANSACTIONS}?link=${simulator.info.linkId}&page_size=100`;
    const headers = { authorization: BASIC_AUTH };
    const idleUrl = String(recorder.info.idleUrl);
    const targets = [simulator, pipe, forwardOnly, recorder].map((child) => ({
      name: child.name,
      url: child.url,
      recorder: child === recorder,
      /** The proxies' process CPU over the measured rounds (undefined once a reading failed). */
      cpuMs: child === forwardOnly || child === recorder ? (0 as number | undefined) : undefined,
      pid: child.pid,
      latencies: [] as number[],
      failureKinds: [] as string[],
    }));
    // Warm-up, the four at once: the JIT, connections, the document's compiled validators in the recorder.
    const warmUpBefore = targets.map((target) => processCpuMs(target.pid));
    const warmUpRequests = await Promise.all(
      targets.map(async (target) => {
        const run = await runFixedRate(target.url, path, headers, PROXY_RATE, WARM_UP_SECONDS);
        return run.latenciesMs.length;
      }),
    );
    let catchUpMs = await caughtUp(idleUrl);
    const warmUpCpu = targets.map((target, index) => {
      const [before, after] = [warmUpBefore[index], processCpuMs(target.pid)];
      return before === undefined || after === undefined
        ? undefined
        : (after - before) / warmUpRequests[index]!;
    });
    for (let round = 0; round < ROUNDS; round++) {
      for (let turn = 0; turn < targets.length; turn++) {
        const target = targets[(round + turn) % targets.length]!;
        const cpuBefore = processCpuMs(target.pid);
        const run = await runFixedRate(target.url, path, headers, PROXY_RATE, secondsPerRound);
        target.latencies.push(...run.latenciesMs);
        target.failureKinds.push(...run.failureKinds);
        if (target.recorder) catchUpMs = Math.max(catchUpMs, await caughtUp(idleUrl));
        const cpuAfter = processCpuMs(target.pid);
        if (target.cpuMs !== undefined)
          target.cpuMs =
            cpuBefore === undefined || cpuAfter === undefined
              ? undefined
              : target.cpuMs + cpuAfter - cpuBefore;
      }
    }
    await Promise.all([pipe.stop(), forwardOnly.stop(), recorder.stop()]);
    const [forwardTarget, recordTarget] = [targets[2]!, targets[3]!];
    const cpuPerRequestMs = {
      ...perRequestCpu(
        forwardTarget.cpuMs === undefined ? undefined : forwardTarget.cpuMs / forwardTarget.latencies.length,
        recordTarget.cpuMs === undefined ? undefined : recordTarget.cpuMs / recordTarget.latencies.length,
        // Every proxied request: the measured ones and the warm-up's.
        {
          forward: cpuOf(forwardOnly.reports),
          record: cpuOf(recorder.reports),
          requests: forwardTarget.latencies.length + warmUpRequests[2]!,
        },
      ),
      warmUp: {
        seconds: WARM_UP_SECONDS,
        ...(warmUpCpu[2] !== undefined && { forwardOnly: round2(warmUpCpu[2]) }),
        ...(warmUpCpu[3] !== undefined && { recorded: round2(warmUpCpu[3]) }),
      },
    };
    const [direct, piped, forwarded, recorded] = targets.map((target) => of(target.latencies)) as [
      Quantiles,
      Quantiles,
      Quantiles,
      Quantiles,
    ];
    const failures = targets.reduce((sum, target) => sum + target.failureKinds.length, 0);
    const added = {
      pipe: minus(piped, direct),
      forwardOnly: minus(forwarded, direct),
      recorded: minus(recorded, direct),
    };
    const verdict: ProxyLatencyReport['verdict'] =
      failures > 0 || direct.p99 >= SATURATED_P99_MS
        ? 'inconclusive'
        : added.recorded.p99 - added.pipe.p99 <= P99_OVER_PIPE_MS
          ? 'met'
          : 'missed';
    return {
      rate: PROXY_RATE,
      secondsPerRound,
      rounds: ROUNDS,
      direct,
      pipe: piped,
      forwardOnly: forwarded,
      recorded,
      added,
      failures,
      failuresByRow: Object.fromEntries(
        targets
          .filter((target) => target.failureKinds.length > 0)
          .map((target) => [target.name, counted(target.failureKinds)]),
      ),
      catchUpMs: Math.round(catchUpMs),
      harBytes: await stat(har).then(
        (s) => s.size,
        () => 0,
      ),
      loadAverage: loadavg().map((load) => Number(load.toFixed(2))),
      cpuPerRequestMs,
      verdict,
    };
  } finally {
    await stopAllChildren();
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * CPU per request of each proxy: over the measured rounds when both were read there, else from each
 * child's report of its whole life (start-up and warm-up included: an upper bound).
 */
function perRequestCpu(
  forwardRounds: number | undefined,
  recordRounds: number | undefined,
  lifetime: {
    forward: ReturnType<typeof cpuOf>;
    record: ReturnType<typeof cpuOf>;
    requests: number;
  },
): ProxyLatencyReport['cpuPerRequestMs'] {
  if (forwardRounds !== undefined && recordRounds !== undefined)
    return {
      forwardOnly: round2(forwardRounds),
      recorded: round2(recordRounds),
      recordedCaughtUp: true,
      counted: 'rounds',
    };
  const { forward, record, requests } = lifetime;
  return {
    ...(forward && { forwardOnly: round2(forward.ms / requests) }),
    ...(record && { recorded: round2(record.ms / requests), recordedCaughtUp: record.caughtUp }),
    counted: 'lifetime',
  };
}

/** The `BENCH_CPU {json}` line a proxy child wrote at its end. */
function cpuOf(reports: readonly string[]): { ms: number; caughtUp: boolean } | undefined {
  const line = reports.find((report) => report.startsWith('BENCH_CPU '));
  return line === undefined
    ? undefined
    : (JSON.parse(line.slice('BENCH_CPU '.length)) as { ms: number; caughtUp: boolean });
}

/** `['status 502', 'ECONNRESET', 'status 502']` -> `['status 502 x2', 'ECONNRESET x1']`. */
function counted(kinds: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${kind} x${count}`);
}

function verdictLine(report: ProxyLatencyReport): string {
  if (report.verdict === 'inconclusive' && report.failures > 0) {
    const where = Object.entries(report.failuresByRow)
      .map(([row, kinds]) => `${row}: ${kinds.join(', ')}`)
      .join('; ');
    return `INCONCLUSIVE: ${report.failures} request(s) failed (${where}), so the rows did not measure the same traffic`;
  }
  if (report.verdict === 'inconclusive')
    return `INCONCLUSIVE: the simulator alone answered p99 ${report.direct.p99.toFixed(2)} ms at this rate (saturated from ${SATURATED_P99_MS} ms): the machine cannot tell the proxy's cost now`;
  const over = report.added.recorded.p99 - report.added.pipe.p99;
  return `${report.verdict === 'met' ? 'met' : 'MISSED'} (${over.toFixed(2)} ms above the bare pipe's ${report.added.pipe.p99.toFixed(2)} ms)`;
}

/**
 * The recording's own CPU per page (redaction, checks and the HAR entry): the recorder's process less
 * the proxy forwarding only; undefined when either was not measured or the checks had not caught up.
 */
export function recordingOwnCpuMs(report: ProxyLatencyReport): number | undefined {
  const { recorded, forwardOnly, recordedCaughtUp } = report.cpuPerRequestMs;
  if (recorded === undefined || forwardOnly === undefined || recordedCaughtUp === false) return undefined;
  return recorded - forwardOnly;
}

/** The warm-up's CPU per page, left out of the figures the targets read. */
function warmUpLine(warmUp: ProxyLatencyReport['cpuPerRequestMs']['warmUp']): string[] {
  if (warmUp === undefined) return [];
  const ms = (value: number | undefined) => (value === undefined ? '?' : `${value.toFixed(2)} ms`);
  return [
    `  left out: the ${warmUp.seconds} s warm-up, the four at once (V8 compiling the proxies' code): forwarding ${ms(warmUp.forwardOnly)}, recording ${ms(warmUp.recorded)} a page`,
  ];
}

export function formatProxyLatency(report: ProxyLatencyReport): string {
  const line = (name: string, q: Quantiles, added?: { p50: number; p99: number }) =>
    `  ${name.padEnd(26)} p50 ${q.p50.toFixed(2).padStart(8)} ms   p99 ${q.p99.toFixed(2).padStart(8)} ms` +
    (added ? `   added p50 ${added.p50.toFixed(2)} ms, p99 ${added.p99.toFixed(2)} ms` : '') +
    `   (${q.requests} requests)`;
  const cpu = report.cpuPerRequestMs;
  const own = recordingOwnCpuMs(report)?.toFixed(2) ?? '?';
  const counted =
    cpu.counted === 'lifetime'
      ? " (each process's whole life, start-up and warm-up included: /proc could not be read)"
      : ' (measured rounds)';
  const cpuLine = `  CPU per recorded page${counted}: forwarding ${cpu.forwardOnly?.toFixed(2) ?? '?'} ms; recording (forwarding + redaction, checks, HAR in the worker) ${cpu.recorded?.toFixed(2) ?? '?'} ms${cpu.recordedCaughtUp === false ? ' so far (the checks had not caught up 4 s after the load)' : ''}, of which the recording's own ${own} ms (target <= ${TARGETS.recorderCpuMsPerPage} ms); the checks caught up at most ${report.catchUpMs} ms after a round`;
  return [
    `recording proxy, list-transactions-100 at ${report.rate} req/s (fixed rate), ${report.rounds} rounds of ${report.secondsPerRound} s per target, in rotating order, pooled:`,
    line('simulator', report.direct),
    line('a bare node:http pipe', report.pipe, report.added.pipe),
    line('proxy, forwarding only', report.forwardOnly, report.added.forwardOnly),
    line('ofkit record', report.recorded, report.added.recorded),
    cpuLine,
    ...warmUpLine(cpu.warmUp),
    `  target: p99 added by ofkit record <= ${P99_OVER_PIPE_MS} ms above a bare node:http pipe's: ${verdictLine(report)}; recording written ${(report.harBytes / 1_048_576).toFixed(1)} MiB; load average ${report.loadAverage.join(' ')}`,
  ].join('\n');
}

if (import.meta.filename === process.argv[1]) {
  const at = process.argv.indexOf('--seconds');
  const seconds = at > 0 ? Number(process.argv[at + 1]) : 18;
  try {
    console.log(formatProxyLatency(await measureProxyLatency(seconds)));
  } finally {
    await stopAllChildren();
  }
}
