/**
 * The evidence bundle's data (`golive.json`): what was run (the catalogue as used, each situation's
 * simulator configuration and seed), how it was judged (timing, declarations), what came out (each
 * item's verdict and findings, each situation's run and evidence) and the versions. The HTML and the
 * JUnit forms are built from it; `ofkit golive verify` runs its situations again from it.
 */
import type { Timing } from '../../../simulator/src/judge/judge.js';
import type { Catalogue } from '../catalogue/catalogue-types.js';
import type { SituationRun } from '../run/run-situation.js';
import type { ItemResult, ItemVerdict } from '../verdicts/item-verdicts.js';
import type { NotApplicable } from '../verdicts/not-applicable.js';
import { shellWord } from './shell-words.js';

export const BUNDLE_FORMAT = 'ofkit-golive-bundle/1';

export interface BundleVersions {
  readonly ofkit: string;
  /** The interface specification the simulator implements (the document's `info.version`). */
  readonly interface: string;
  readonly node: string;
}

export interface GoliveBundle {
  readonly format: typeof BUNDLE_FORMAT;
  readonly created_at: string;
  readonly versions: BundleVersions;
  /** The client's command as it was given (quoted for a shell). */
  readonly command: string;
  /** The command that runs the bundle's situations again and compares the verdicts. */
  readonly reproduce: string;
  readonly timing: Timing;
  readonly strict: boolean;
  readonly not_applicable: readonly NotApplicable[];
  readonly summary: Readonly<Record<ItemVerdict, number>> & { readonly exit_code: number };
  readonly items: readonly ItemResult[];
  readonly situations: readonly SituationRun[];
  /** The catalogue the verdicts were decided by: `verify` decides by it again. */
  readonly catalogue: Catalogue;
}

/** 0 when no item is Not ready (under `strict`, nor Ready with risks), else 1. */
export function exitCodeOf(items: readonly ItemResult[], strict: boolean): number {
  const failing = (verdict: ItemVerdict) =>
    verdict === 'not_ready' || (strict && verdict === 'ready_with_risks');
  return items.some((item) => failing(item.verdict)) ? 1 : 0;
}

export interface BundleInput {
  readonly versions: BundleVersions;
  readonly command: string;
  /** Where the bundle is written (its `reproduce` command names it). */
  readonly folder: string;
  readonly timing: Timing;
  readonly strict: boolean;
  readonly notApplicable: readonly NotApplicable[];
  readonly items: readonly ItemResult[];
  readonly runs: readonly SituationRun[];
  readonly catalogue: Catalogue;
  readonly now?: Date;
}

export function goliveBundle(input: BundleInput): GoliveBundle {
  const count = (verdict: ItemVerdict) => input.items.filter((item) => item.verdict === verdict).length;
  return {
    format: BUNDLE_FORMAT,
    created_at: (input.now ?? new Date()).toISOString(),
    versions: input.versions,
    command: input.command,
    reproduce: `npx ofkit golive verify ${shellWord(input.folder)} -- ${input.command}`,
    timing: input.timing,
    strict: input.strict,
    not_applicable: input.notApplicable,
    summary: {
      ready: count('ready'),
      ready_with_risks: count('ready_with_risks'),
      not_ready: count('not_ready'),
      not_assessed: count('not_assessed'),
      exit_code: exitCodeOf(input.items, input.strict),
    },
    items: input.items,
    situations: input.runs,
    catalogue: input.catalogue,
  };
}

/** The words of a verdict, as the console, the HTML and JUnit show it. */
export const VERDICT_WORDS: Readonly<Record<ItemVerdict, string>> = {
  ready: 'Ready',
  ready_with_risks: 'Ready with risks',
  not_ready: 'Not ready',
  not_assessed: 'not assessed',
};
