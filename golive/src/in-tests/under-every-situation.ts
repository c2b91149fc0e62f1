/**
 * `ofkit/golive` in a test file: one test body run under each situation of the catalogue, each time
 * against a fresh simulator in process set up as the situation says, so that a client team writes its
 * integration test once. A situation's test fails when the body throws, when the client broke a client
 * rule in it (the judge's door decides, as for `ofkit golive`), or when the client did not meet it (the
 * message says what the test would have to do to reach it).
 */
import type { ApiKey, Environment, SimulatorControl } from '../../../simulator/src/index.js';
import type { Timing } from '../../../simulator/src/judge/judge.js';
import type { Situation } from '../catalogue/catalogue-types.js';
import { readCatalogue } from '../catalogue/read-catalogue.js';
import { chooseSituations } from '../golive-run.js';
import { runSituation, SITUATION_VARIABLES, type SituationRun } from '../run/run-situation.js';

/** What the body is given in each situation. */
export interface SituationContext {
  readonly situation: Pick<Situation, 'id' | 'title' | 'client_must' | 'to_meet'>;
  readonly url: string;
  readonly keys: readonly ApiKey[];
  readonly environment: Environment;
  readonly control: SimulatorControl;
  readonly seed: string;
  /** The variables `ofkit golive` gives a command: `OFKIT_URL`, `OFKIT_KEY`, ..., `OFKIT_SITUATION`. */
  readonly env: Readonly<Record<string, string>>;
  /** How retry waits are judged: `order-only` when the body's timers are faked. */
  readonly timing: Timing;
}

/** vitest's `it` / `test` (jest's alike): a name, a body, a time-out in ms. */
export type TestFunction = (name: string, body: () => Promise<void>, timeout?: number) => unknown;

export interface EverySituationOptions {
  /** Situation ids (default: every situation of the catalogue). */
  situations?: readonly string[];
  /** Default `real`; `order-only` when the body's timers are faked. */
  timing?: Timing;
  /** Per situation; default 120 s (a client waiting the spec's backoff for real needs about a minute). */
  timeoutMs?: number;
  /** Told of each situation's run (the judge's verdicts, whether it was met, the evidence). */
  onRun?: (run: SituationRun) => void;
}

/** Why the run fails: the body's error, each violated client rule, the situation not met. */
function problemsOf(run: SituationRun, thrown: unknown, situation: Situation): string[] {
  const problems: string[] = [];
  if (thrown !== undefined)
    problems.push(`the test body threw: ${(thrown as Error)?.message ?? String(thrown)}`);
  for (const verdict of run.evidence.verdicts.filter((v) => v.verdict === 'violated'))
    problems.push(`${verdict.rule} violated: ${verdict.summary}\n    ${verdict.evidence.join('\n    ')}`);
  if (!run.met) {
    const missing = run.conditions.filter((c) => !c.holds).map((c) => c.condition);
    problems.push(`situation not met (not seen: ${missing.join('; ')}): ${situation.to_meet}`);
  }
  return problems;
}

/** Declares one test per situation, named `<title> [<situation id>]`, each running `body`. */
export function underEverySituation(
  test: TestFunction,
  title: string,
  body: (context: SituationContext) => Promise<void>,
  options: EverySituationOptions = {},
): void {
  const timing = options.timing ?? 'real';
  for (const situation of chooseSituations(readCatalogue(), options.situations)) {
    test(
      `${title} [${situation.id}]`,
      async () => {
        let thrown: unknown;
        const run = await runSituation(situation, situation.simulator, timing, async (simulator) => {
          const { started } = simulator;
          const env = {
            ...simulator.environment,
            [SITUATION_VARIABLES.situation]: situation.id,
            [SITUATION_VARIABLES.timing]: timing,
          };
          const { url, keys, environment, control, seed } = started;
          try {
            await body({ situation, url, keys, environment, control, seed, env, timing });
          } catch (error) {
            thrown = error;
          }
          // No output is captured in process: the request ids logged are left to `ofkit golive`.
          return { exitCode: thrown === undefined ? 0 : 1 };
        });
        options.onRun?.(run);
        const problems = problemsOf(run, thrown, situation);
        if (problems.length > 0)
          throw new Error(`ofkit golive, situation ${situation.id}:\n- ${problems.join('\n- ')}`, {
            cause: thrown,
          });
      },
      options.timeoutMs ?? 120_000,
    );
  }
}
