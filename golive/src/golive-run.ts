/**
 * `ofkit golive` as a library: the situations asked for (default: every one of the catalogue) run
 * through the client, then the checklist's verdicts. The CLI gives the client (the user's command); the
 * in-test helper gives a test body.
 */
import type { Timing } from '../../simulator/src/judge/judge.js';
import type { Catalogue, Situation } from './catalogue/catalogue-types.js';
import type { ClientRunner, SituationRun } from './run/run-situation.js';
import { type PlannedSituation, runSituations } from './run/run-situations.js';
import { type ItemResult, itemVerdicts } from './verdicts/item-verdicts.js';
import type { NotApplicable } from './verdicts/not-applicable.js';

/** A `--situations` list naming a situation the catalogue lacks. */
export class UnknownSituationError extends Error {
  override name = 'UnknownSituationError';
}

/** The situations of `ids` (every one when absent), in the catalogue's order. */
export function chooseSituations(catalogue: Catalogue, ids?: readonly string[]): Situation[] {
  if (ids === undefined) return [...catalogue.situations];
  const known = catalogue.situations.map((situation) => situation.id);
  const unknown = ids.filter((id) => !known.includes(id));
  if (unknown.length > 0)
    throw new UnknownSituationError(`no situation ${unknown.join(', ')} (situations: ${known.join(', ')})`);
  return catalogue.situations.filter((situation) => ids.includes(situation.id));
}

export interface GoliveRunOptions {
  readonly catalogue: Catalogue;
  /** Each situation with the configuration to run it with (the catalogue's, or a bundle's). */
  readonly plan: readonly PlannedSituation[];
  readonly timing: Timing;
  readonly concurrency: number;
  readonly notApplicable: readonly NotApplicable[];
  readonly client: ClientRunner;
  readonly onRun?: (run: SituationRun, done: number, total: number) => void;
}

export interface GoliveOutcome {
  readonly runs: readonly SituationRun[];
  readonly items: readonly ItemResult[];
}

/** The catalogue's configuration of each situation. */
export const catalogueConfigs = (situations: readonly Situation[]): PlannedSituation[] =>
  situations.map((situation) => ({ situation, config: situation.simulator }));

export async function runGolive(options: GoliveRunOptions): Promise<GoliveOutcome> {
  const runs = await runSituations(options);
  return { runs, items: itemVerdicts(options.catalogue, runs, options.notApplicable) };
}
