/**
 * One situation run: its simulator started, the client run against it (the user's command, or a test
 * body in process), the client judged through the judge's door, whether it met the situation, and the
 * evidence, redacted. What the bundle keeps of the run is `SituationRun`; nothing in it is a secret.
 */
import type { Timing } from '../../../simulator/src/judge/judge.js';
import type { Situation, SituationConfig } from '../catalogue/catalogue-types.js';
import { type ConditionOutcome, metConditions } from './met-conditions.js';
import { type SituationEvidence, situationEvidence } from './situation-evidence.js';
import { type SituationSimulator, startSituationSimulator } from './situation-simulator.js';

/** What the client did in a situation: its exit code (a test body: 0, or 1 when it threw) and output. */
export interface ClientOutcome {
  readonly exitCode: number;
  /**
   * Its output (stdout and stderr, and its `--client-log`), where the request ids of failures are looked
   * for; none (a test body in process): CLIENT-REQUEST-IDS-LOGGED is not exercised.
   */
  readonly output?: string;
  /** Why it could not run at all (a command not found): the run says so rather than judging nothing. */
  readonly notRun?: string;
}

/** Runs the client against the situation's simulator. */
export type ClientRunner = (simulator: SituationSimulator, situation: Situation) => Promise<ClientOutcome>;

export interface SituationRun {
  readonly situation: string;
  readonly title: string;
  /** The simulator's configuration, as run: `golive verify` runs it again from here. */
  readonly simulator: SituationConfig;
  readonly exitCode: number;
  readonly durationMs: number;
  readonly requests: number;
  readonly deliveries: number;
  readonly met: boolean;
  readonly conditions: readonly ConditionOutcome[];
  readonly evidence: SituationEvidence;
}

/** The environment's extra variables in a situation: which one, and how its retry waits are judged. */
export const SITUATION_VARIABLES = { situation: 'OFKIT_SITUATION', timing: 'OFKIT_JUDGE_TIMING' } as const;

/** Runs `situation` (with `config`, the catalogue's or a bundle's) through `client`. */
export async function runSituation(
  situation: Situation,
  config: SituationConfig,
  timing: Timing,
  client: ClientRunner,
): Promise<SituationRun> {
  const started = performance.now();
  const simulator = await startSituationSimulator(config);
  let outcome: ClientOutcome;
  try {
    outcome = await client(simulator, situation);
  } catch (error) {
    await simulator.finish(timing);
    throw error;
  }
  const judged = await simulator.finish(timing, outcome.output);
  if (outcome.notRun !== undefined) throw new CommandNotRun(outcome.notRun);
  const conditions = metConditions(situation.met_when, judged.report, judged.requests, judged.facts);
  return {
    situation: situation.id,
    title: situation.title,
    simulator: config,
    exitCode: outcome.exitCode,
    durationMs: Math.round(performance.now() - started),
    requests: judged.report.requests,
    deliveries: judged.report.deliveries,
    met: conditions.every((c) => c.holds),
    conditions,
    evidence: situationEvidence(judged, outcome.output ?? '', outcome.exitCode !== 0),
  };
}

/** The client's command could not be started: golive could not run, which is not a verdict. */
export class CommandNotRun extends Error {
  override name = 'CommandNotRun';
}
