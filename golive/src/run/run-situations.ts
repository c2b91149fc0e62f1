/**
 * The situations run one after another, or `concurrency` at a time for a client that can share the
 * machine; each run reported as it ends, the runs given back in the order asked. A command that could not
 * be started stops the whole run (no further situation starts): nothing could be judged.
 */
import type { Timing } from '../../../simulator/src/judge/judge.js';
import type { Situation, SituationConfig } from '../catalogue/catalogue-types.js';
import { type ClientRunner, runSituation, type SituationRun } from './run-situation.js';

export interface PlannedSituation {
  readonly situation: Situation;
  /** As the catalogue gives it, or as a bundle recorded it (`golive verify`). */
  readonly config: SituationConfig;
}

export interface RunSituationsOptions {
  readonly plan: readonly PlannedSituation[];
  readonly timing: Timing;
  readonly concurrency: number;
  readonly client: ClientRunner;
  /** Told of each run as it ends (the progress line). */
  readonly onRun?: (run: SituationRun, done: number, total: number) => void;
}

export async function runSituations(options: RunSituationsOptions): Promise<SituationRun[]> {
  const { plan, timing, client } = options;
  const runs: SituationRun[] = new Array(plan.length);
  let next = 0;
  let done = 0;
  let stopped: unknown;
  async function worker(): Promise<void> {
    while (stopped === undefined && next < plan.length) {
      const index = next;
      next += 1;
      const { situation, config } = plan[index] as PlannedSituation;
      try {
        const run = await runSituation(situation, config, timing, client);
        runs[index] = run;
        done += 1;
        options.onRun?.(run, done, plan.length);
      } catch (error) {
        stopped ??= error;
      }
    }
  }
  const workers = Math.max(1, Math.min(options.concurrency, plan.length));
  await Promise.all(Array.from({ length: workers }, worker));
  if (stopped !== undefined) throw stopped;
  return runs;
}
