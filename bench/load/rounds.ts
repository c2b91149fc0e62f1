/**
 * Rounds: every server and scenario is run in each of several rounds, interleaved (round 1 of every
 * row, then round 2...), so every row meets the same machine; a row's figures are the medians of its
 * rounds. Each round is a warm-up, a CPU reading of the server's processes, the measured load, and a
 * second reading.
 */
import type { RunRow, ServerName } from '../report/targets.js';
import { cpuPerRequestUs, median, processCpuMs, processesCpuMs } from './cpu-time.js';
import type { LoadResult, LoadSettings } from './run-load.js';
import type { Scenario, ScenarioId } from './scenarios.js';

export interface RoundResult {
  load: LoadResult;
  /** Microseconds of CPU per request of the server's processes (null: unreadable). */
  cpuUs: number | null;
  /** Redis rows: redis-server's. */
  redisCpuUs?: number | null;
}

/** What a round needs of a server: its processes and how to load it. */
export interface MeasuredServer {
  pids: readonly number[];
  redisPid?: number;
  load(scenario: Scenario, settings: LoadSettings): Promise<LoadResult>;
}

/** One round of one scenario on one server: warm-up (unmeasured), then the measured load between two CPU readings. */
export async function measureRound(
  server: MeasuredServer,
  scenario: Scenario,
  settings: LoadSettings,
): Promise<RoundResult> {
  if (settings.warmupSeconds > 0)
    await server.load(scenario, { ...settings, durationSeconds: settings.warmupSeconds, warmupSeconds: 0 });
  const before = processesCpuMs(server.pids);
  const redisBefore = server.redisPid === undefined ? undefined : processCpuMs(server.redisPid);
  const load = await server.load(scenario, { ...settings, warmupSeconds: 0 });
  const cpuUs = cpuPerRequestUs(before, processesCpuMs(server.pids), load.requests);
  if (server.redisPid === undefined) return { load, cpuUs };
  return {
    load,
    cpuUs,
    redisCpuUs: cpuPerRequestUs(redisBefore, processCpuMs(server.redisPid), load.requests),
  };
}

const medianOf = (rounds: readonly RoundResult[], pick: (load: LoadResult) => number) =>
  median(rounds.map((round) => pick(round.load))) ?? 0;

/** One row of the report from a server's rounds: medians of rates, latencies and CPU; counts summed. */
export function rowOfRounds(
  server: ServerName,
  scenario: ScenarioId,
  bodyBytes: number,
  rounds: readonly RoundResult[],
): RunRow {
  const statusCodes: Record<string, number> = {};
  for (const round of rounds)
    for (const [code, count] of Object.entries(round.load.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const sum = (pick: (load: LoadResult) => number) =>
    rounds.reduce((total, round) => total + pick(round.load), 0);
  const load: LoadResult = {
    requestsPerSecond: medianOf(rounds, (l) => l.requestsPerSecond),
    latencyP50Ms: medianOf(rounds, (l) => l.latencyP50Ms),
    latencyP99Ms: medianOf(rounds, (l) => l.latencyP99Ms),
    latencyAvgMs: medianOf(rounds, (l) => l.latencyAvgMs),
    latencyMaxMs: Math.max(...rounds.map((round) => round.load.latencyMaxMs)),
    requests: sum((l) => l.requests),
    non2xx: sum((l) => l.non2xx),
    statusCodes,
    errors: sum((l) => l.errors),
    timeouts: sum((l) => l.timeouts),
    durationSeconds: sum((l) => l.durationSeconds),
  };
  const cpuUsByRound = rounds.map((round) => round.cpuUs);
  const row: RunRow = { server, scenario, bodyBytes, load, cpuUs: median(cpuUsByRound), cpuUsByRound };
  if (rounds.some((round) => round.redisCpuUs !== undefined))
    row.redisCpuUs = median(rounds.map((round) => round.redisCpuUs ?? null));
  return row;
}
