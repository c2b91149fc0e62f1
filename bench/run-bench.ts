/**
 * `npm run bench`: the simulator (memory store; and, unless --no-redis or redis-server is absent, on
 * a RedisStore with one replica and with two), its HTTP adapter alone on a constant body, bare
 * node:http serving the same bytes, and the peers (prism mock, json-server, Mockoon's CLI, unless
 * --no-peers) serving the same 100 records, each a child process on 127.0.0.1, loaded by autocannon in
 * three interleaved rounds; prints CPU per request of each server process beside bare's and the
 * peers', req/s, p50/p99 and the targets, profiles the simulator when a page target is missed,
 * measures what the recording proxy (`ofkit record`) costs per page of 100 transactions at a fixed 200
 * requests/s (unless --no-proxy), start-up (ofkit simulate and startSimulator() beside prism mock) and
 * memory with 10,000 links and 1,000,000 transactions, and writes every number to
 * bench/results/latest.json.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { type BenchOptions, BenchUsageError, parseBenchOptions, USAGE } from './bench-options.js';
import { type LoadPhase, ROUNDS, runLoadPhase } from './load/load-phase.js';
import type { LoadSettings } from './load/run-load.js';
import { TARGET_SCENARIO } from './load/scenarios.js';
import { stopBenchRedis } from './load/start-redis-servers.js';
import { formatMemory, type MemoryReport, measureStartupAndMemory } from './memory/measure-memory.js';
import { formatProfile, type ProfileReport, profileSimulator } from './profile/profile-simulator.js';
import {
  formatProxyLatency,
  measureProxyLatency,
  type ProxyLatencyReport,
  recordingOwnCpuMs,
} from './proxy/measure-proxy-latency.js';
import { formatOverBare, formatPeers, formatRuns, formatTargets } from './report/format-report.js';
import {
  checkRecorderTargets,
  checkRunTargets,
  checkTargets,
  gateVerdict,
  invalidRuns,
  PEER_NAMES,
} from './report/targets.js';
import { stopAllChildren } from './servers/child-process.js';
import { formatStartup, measureStartup, type StartupReport } from './startup/measure-startup.js';

function machine() {
  const cores = cpus();
  return {
    cpus: cores.length,
    cpuModel: cores[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    totalMemoryMiB: Math.round(totalmem() / 1_048_576),
    loadAverageAtStart: loadavg().map((load) => Number(load.toFixed(2))),
  };
}

function printLoadPhase(phase: LoadPhase, settings: LoadSettings): ReturnType<typeof checkTargets> {
  const checks = checkTargets(phase.rows, phase.notRun);
  console.log(
    `\n${settings.connections} connections, ${ROUNDS} interleaved rounds of ${settings.durationSeconds} s per run after ${settings.warmupSeconds} s of warm-up; medians of the rounds; CPU: user + system time of the server's processes (/proc), per answered request; latency resolution 1 ms\n`,
  );
  console.log(formatRuns(phase.rows));
  // The machine is shared (2 cores, other agents): the load says how far to trust the numbers.
  console.log(
    `load average after the runs: ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  console.log(`\n${formatOverBare(phase.rows)}`);
  console.log(`\n${formatPeers(phase.rows, phase.notRun)}`);
  console.log(`\ntargets:\n${formatTargets(checks)}`);
  console.log(`\nnotes:\n${phase.notes.map((note) => `- ${note}`).join('\n')}`);
  return checks;
}

async function maybeProfile(options: BenchOptions, settings: LoadSettings, missed: boolean) {
  if (options.profile === 'never' || (options.profile === 'auto' && !missed)) return undefined;
  console.log(
    `\nprofiling the simulator under list-transactions-100 (${missed ? 'target missed' : '--profile'})...`,
  );
  const report = await profileSimulator(options.resultsDir, options.transactions, settings);
  console.log(formatProfile(report));
  return report;
}

async function maybeMemory(options: BenchOptions, settings: LoadSettings) {
  if (!options.memory) return undefined;
  console.log('\nstart-up and memory: loading 10,000 links and 1,000,000 transactions in a probe child...');
  // The samples need not be long: they show whether a list stays fast with a big store.
  const report = await measureStartupAndMemory({
    ...settings,
    durationSeconds: Math.min(settings.durationSeconds, 3),
  });
  console.log(formatMemory(report));
  return report;
}

async function maybeProxy(
  options: BenchOptions,
  settings: LoadSettings,
): Promise<ProxyLatencyReport | undefined> {
  if (!options.proxy) return undefined;
  console.log('\nthe recording proxy (ofkit record) in front of the simulator, at a fixed rate...');
  const report = await measureProxyLatency(settings.durationSeconds);
  console.log(formatProxyLatency(report));
  return report;
}

async function writeResults(options: BenchOptions, results: Record<string, unknown>): Promise<string> {
  await mkdir(options.resultsDir, { recursive: true });
  const file = join(options.resultsDir, 'latest.json');
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}

interface Outcome {
  host: ReturnType<typeof machine>;
  settings: LoadSettings;
  phase: LoadPhase;
  checks: ReturnType<typeof checkTargets>;
  profile: ProfileReport | undefined;
  memory: MemoryReport | undefined;
  startup: StartupReport;
  proxy: ProxyLatencyReport | undefined;
}

/** Everything latest.json holds: the machine (load average at both ends: it was shared), every number. */
function resultsDocument({
  host,
  settings,
  phase,
  checks,
  profile,
  memory,
  startup,
  proxy,
}: Outcome): Record<string, unknown> {
  return {
    generatedAt: new Date().toISOString(),
    machine: { ...host, loadAverageAtEnd: loadavg().map((load) => Number(load.toFixed(2))) },
    settings,
    readyMs: phase.readyMs,
    runs: phase.rows,
    peersNotRun: phase.notRun,
    targets: checks,
    notes: phase.notes,
    invalidRuns: invalidRuns(phase.rows).map((row) => `${row.scenario} / ${row.server}`),
    profile: profile && { file: profile.file, load: profile.load, summary: profile.summary },
    memory,
    startup,
    proxy,
  };
}

async function main(argv: readonly string[]): Promise<number> {
  const options = parseBenchOptions(argv);
  const settings: LoadSettings = {
    connections: options.connections,
    durationSeconds: options.durationSeconds,
    warmupSeconds: options.warmupSeconds,
  };
  const host = machine();
  console.log(
    `machine: ${host.cpus} cpus (${host.cpuModel}), node ${host.node}, ${host.platform}, load average ${host.loadAverageAtStart.join(' ')}`,
  );
  const phase = await runLoadPhase(options, settings);
  if (!options.peers) for (const peer of PEER_NAMES) phase.notRun[peer] = 'left out (--no-peers)';
  const checks = printLoadPhase(phase, settings);
  const profile = await maybeProfile(
    options,
    settings,
    // The page's own targets: a missed Redis or unmeasured one is not the memory path's to profile.
    checks.some(
      (c) =>
        c.id.startsWith(`${TARGET_SCENARIO}:`) &&
        !c.id.includes('redis') &&
        (!c.met || c.inconclusive !== undefined),
    ),
  );
  const proxy = await maybeProxy(options, settings);
  const memory = await maybeMemory(options, settings);
  console.log('');
  const startup = await measureStartup();
  console.log(formatStartup(startup));
  const allChecks = [
    ...checks,
    ...checkRunTargets(
      Number.isFinite(startup.ratioToPrism) ? startup.ratioToPrism : null,
      memory?.probe.loaded.rssMiB ?? null,
    ),
    // A saturated or failing proxy run cannot tell the recorder's p99 from the machine's: not measured.
    ...checkRecorderTargets(
      // The target is the recording's own work (redaction, checks, HAR), forwarding taken out.
      (proxy ? recordingOwnCpuMs(proxy) : undefined) ?? null,
      proxy?.verdict === 'inconclusive' ? null : (proxy?.added.recorded.p99 ?? null),
      proxy?.added.pipe.p99 ?? null,
    ),
  ];
  console.log(`\nevery target:\n${formatTargets(allChecks)}`);
  const file = await writeResults(
    options,
    resultsDocument({ host, settings, phase, checks: allChecks, profile, memory, startup, proxy }),
  );
  console.log(`\nresults: ${file}`);
  const invalid = invalidRuns(phase.rows);
  for (const row of invalid) {
    console.error(
      `FAILED: ${row.scenario} / ${row.server}: most answers are not 2xx (${JSON.stringify(row.load.statusCodes)}); its numbers are worthless`,
    );
  }
  return invalid.length > 0 ? 1 : gate(options, host, allChecks);
}

/** `--gate`: 1 unless every target was measured and met; the load at the start says how far to trust it. */
function gate(
  options: BenchOptions,
  host: ReturnType<typeof machine>,
  checks: ReturnType<typeof checkTargets>,
): number {
  if (!options.gate) return 0;
  const verdict = gateVerdict(checks);
  const [oneMinute = 0] = host.loadAverageAtStart;
  if (oneMinute >= 1)
    console.error(
      `gate: the load average was ${oneMinute} at the start (targets are set for a quiet machine, under 1)`,
    );
  if (verdict.pass) {
    console.log('gate: every target measured and met');
    return 0;
  }
  console.error(`gate FAILED:\n${verdict.lines.map((line) => `  ${line}`).join('\n')}`);
  return 1;
}

process.once('SIGINT', () => {
  console.error('\nSIGINT: stopping the bench servers');
  void stopAllChildren()
    .then(stopBenchRedis)
    .finally(() => process.exit(130));
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof BenchUsageError) {
    console.error(`${error.message}\nusage: ${USAGE}`);
    process.exitCode = 2;
  } else {
    console.error(error);
    process.exitCode = 1;
  }
} finally {
  await stopAllChildren();
  await stopBenchRedis();
}
