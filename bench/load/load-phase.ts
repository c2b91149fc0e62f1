/**
 * The load phase: the servers started, then every scenario on every server that serves it, in three
 * interleaved rounds (round 1 of every row, then round 2, then round 3), each row the medians of its
 * rounds (rounds.ts).
 */
import type { RunRow } from '../report/targets.js';
import { measureRound, type RoundResult, rowOfRounds } from './rounds.js';
import type { LoadSettings } from './run-load.js';
import { startBenchServers } from './start-servers.js';

export const ROUNDS = 3;

export interface LoadPhase {
  rows: RunRow[];
  notes: string[];
  readyMs: Record<string, number>;
  /** Peer -> why it is not in this run. */
  notRun: Record<string, string>;
}

export async function runLoadPhase(
  options: { transactions: number; redis: boolean; peers: boolean },
  settings: LoadSettings,
): Promise<LoadPhase> {
  console.log(
    `starting the simulator, its HTTP adapter alone${options.redis ? ', the simulator on Redis (one and two replicas)' : ''}, bare node:http${options.peers ? ', prism, json-server and mockoon' : ''} (children, 127.0.0.1)...`,
  );
  const bench = await startBenchServers(options.transactions, options);
  const readyMs = Object.fromEntries(bench.targets.map((t) => [t.name, Math.round(t.readyMs)]));
  const runs = bench.targets.flatMap((target) =>
    target.scenarios.map((scenario) => ({ target, scenario, rounds: [] as RoundResult[] })),
  );
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      // The first round warms longer: the JIT and the servers' caches are cold, and its figures would stand apart.
      const warmup = round === 1 ? Math.max(1, 2 * settings.warmupSeconds) : settings.warmupSeconds;
      console.log(
        `  round ${round} of ${ROUNDS}: ${runs.length} runs of ${warmup} s warm-up + ${settings.durationSeconds} s`,
      );
      for (const scenario of bench.scenarios)
        for (const run of runs.filter((r) => r.scenario.id === scenario.id))
          run.rounds.push(
            await measureRound(run.target, run.scenario, { ...settings, warmupSeconds: warmup }),
          );
    }
  } finally {
    await bench.stop();
  }
  // Scenario by scenario, as the report reads: each server beside bare on the same request.
  const rows = bench.scenarios.flatMap((scenario) =>
    runs
      .filter((run) => run.scenario.id === scenario.id)
      .map(({ target, rounds }) =>
        rowOfRounds(
          target.name,
          scenario.id,
          bench.probes.get(`${target.name} ${scenario.id}`)?.bytes ?? 0,
          rounds,
        ),
      ),
  );
  return { rows, notes: bench.notes, readyMs, notRun: bench.notRun };
}
