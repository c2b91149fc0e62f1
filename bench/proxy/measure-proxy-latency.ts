/**
 * The recording proxy's cost: a page of 100 transactions read at a fixed 200 requests/s straight from
 * the simulator and through `ofkit record` (each a child process; the proxy records to a temporary
 * HAR file), in alternating rounds so both meet the same machine load; the latency the proxy adds is
 * the difference of the quantiles. Target: p99 added under 2 ms.
 * Alone: `tsx bench/proxy/measure-proxy-latency.ts [--seconds N]`.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild, stopAllChildren, tsxArgs } from '../servers/child-process.js';
import { BASIC_AUTH, TRANSACTIONS } from '../servers/seed-data.js';
import { quantile, runFixedRate } from './fixed-rate-load.js';

export const PROXY_RATE = 200;
export const PROXY_TARGET_P99_ADDED_MS = 2;
const ROUNDS = 2;

export interface ProxyLatencyReport {
  rate: number;
  secondsPerRound: number;
  rounds: number;
  direct: { p50: number; p99: number; requests: number };
  proxied: { p50: number; p99: number; requests: number };
  added: { p50: number; p99: number };
  failures: number;
  harBytes: number;
  met: boolean;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

export async function measureProxyLatency(secondsPerRound: number): Promise<ProxyLatencyReport> {
  const folder = await mkdtemp(join(tmpdir(), 'ofkit-bench-proxy-'));
  const har = join(folder, 'bench.har');
  try {
    const simulator = await startChild({
      name: 'simulator',
      command: process.execPath,
      args: tsxArgs('bench/servers/simulator-server.ts'),
    });
    const recorder = await startChild({
      name: 'ofkit record',
      command: process.execPath,
      args: [
        ...tsxArgs(process.env.PROXY_ENTRY ?? 'bench/proxy/recorder-server.ts'),
        '--upstream',
        simulator.url,
        '--out',
        har,
      ],
    });
    const path = `${TRANSACTIONS}?link=${simulator.info.linkId}&page_size=100`;
    const headers = { authorization: BASIC_AUTH };
    // Warm-up: JIT, connections, the document's compiled validators in the proxy.
    await runFixedRate(simulator.url, path, headers, PROXY_RATE, 1);
    await runFixedRate(recorder.url, path, headers, PROXY_RATE, 1);
    const direct: number[] = [];
    const proxied: number[] = [];
    let failures = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (const [origin, into] of [
        [simulator.url, direct],
        [recorder.url, proxied],
      ] as const) {
        const run = await runFixedRate(origin, path, headers, PROXY_RATE, secondsPerRound);
        into.push(...run.latenciesMs);
        failures += run.failures;
      }
    }
    await recorder.stop();
    await simulator.stop();
    const of = (latencies: number[]) => ({
      p50: round2(quantile(latencies, 0.5)),
      p99: round2(quantile(latencies, 0.99)),
      requests: latencies.length,
    });
    const report = { direct: of(direct), proxied: of(proxied) };
    const added = {
      p50: round2(report.proxied.p50 - report.direct.p50),
      p99: round2(report.proxied.p99 - report.direct.p99),
    };
    return {
      rate: PROXY_RATE,
      secondsPerRound,
      rounds: ROUNDS,
      ...report,
      added,
      failures,
      harBytes: await stat(har).then(
        (s) => s.size,
        () => 0,
      ),
      met: failures === 0 && added.p99 < PROXY_TARGET_P99_ADDED_MS,
    };
  } finally {
    await stopAllChildren();
    await rm(folder, { recursive: true, force: true });
  }
}

export function formatProxyLatency(report: ProxyLatencyReport): string {
  const line = (name: string, q: { p50: number; p99: number; requests: number }) =>
    `  ${name.padEnd(28)} p50 ${q.p50.toFixed(2)} ms   p99 ${q.p99.toFixed(2)} ms   (${q.requests} requests)`;
  return [
    `recording proxy (ofkit record), list-transactions-100 at ${report.rate} req/s, ${report.rounds} rounds of ${report.secondsPerRound} s each:`,
    line('simulator', report.direct),
    line('through ofkit record', report.proxied),
    `  added by the proxy           p50 ${report.added.p50.toFixed(2)} ms   p99 ${report.added.p99.toFixed(2)} ms   target p99 < ${PROXY_TARGET_P99_ADDED_MS} ms: ${report.met ? 'met' : 'MISSED'}${report.failures > 0 ? ` (${report.failures} failed requests)` : ''}`,
    `  recording written: ${(report.harBytes / 1_048_576).toFixed(1)} MiB`,
  ].join('\n');
}

if (import.meta.filename === process.argv[1]) {
  const at = process.argv.indexOf('--seconds');
  const seconds = at > 0 ? Number(process.argv[at + 1]) : 5;
  try {
    console.log(formatProxyLatency(await measureProxyLatency(seconds)));
  } finally {
    await stopAllChildren();
  }
}
