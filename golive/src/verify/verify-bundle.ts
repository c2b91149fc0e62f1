/**
 * `ofkit golive verify`: the situations of a bundle run again from its own record (each situation's
 * simulator configuration and seed, the catalogue and declarations it was decided by, the timing), and
 * each item's verdict compared with the bundle's: reproduced, or what it is now.
 */
import type { GoliveBundle } from '../bundle/bundle-data.js';
import type { PlannedSituation } from '../run/run-situations.js';
import type { ItemResult, ItemVerdict } from '../verdicts/item-verdicts.js';

export interface ItemReproduction {
  readonly item: string;
  readonly was: ItemVerdict;
  readonly now: ItemVerdict;
  readonly reproduced: boolean;
}

/** The bundle's situations as they were run. */
export function bundlePlan(bundle: GoliveBundle): PlannedSituation[] {
  return bundle.situations.map((run) => {
    const situation = bundle.catalogue.situations.find((entry) => entry.id === run.situation);
    if (!situation) throw new Error(`the bundle's catalogue lacks its situation ${run.situation}`);
    return { situation, config: run.simulator };
  });
}

/** Each item of the bundle beside its verdict now. */
export function reproductions(bundle: GoliveBundle, now: readonly ItemResult[]): ItemReproduction[] {
  return bundle.items.map((before) => {
    const after = now.find((item) => item.item === before.item)?.verdict ?? 'not_assessed';
    return { item: before.item, was: before.verdict, now: after, reproduced: after === before.verdict };
  });
}
