/**
 * The checklist's verdicts from the situations' runs. Per item:
 *
 * - not assessed: a rule or situation it names does not exist yet, or a situation it requires was not
 *   run (`--situations`; what was run still makes it Not ready): never Ready;
 * - Not ready: a rule of the item violated in any situation; a situation it requires never met (armed,
 *   never reached: the finding says what the client's tests must do to reach it); the client's command
 *   failed in a situation that bears on it;
 * - Ready with risks: nothing of the above, but a rule of the item gave only a warning (a behaviour the
 *   evidence suggests and cannot prove: a request id not found in the client's output, a repeated webhook
 *   followed up twice), or was never exercised in any situation (traffic cannot show it either way), or
 *   the item or one of its situations is declared not applicable;
 * - Ready otherwise.
 *
 * An item with no rule of its own, `compared_with` a situation (forward compatibility), is Not ready on
 * a rule the client broke in the item's situations and kept in the compared one.
 *
 * An item declared not applicable as a whole is Not ready only on a violation (what it requires is not
 * asked of the client), else Ready with risks.
 */
import type { Catalogue, ChecklistItem } from '../catalogue/catalogue-types.js';
import type { SituationRun } from '../run/run-situation.js';
import { CLIENT_RULE_IDS, itemGaps } from './item-gaps.js';
import type { NotApplicable } from './not-applicable.js';

export type ItemVerdict = 'ready' | 'ready_with_risks' | 'not_ready' | 'not_assessed';

export type FindingKind =
  | 'violated'
  | 'warning'
  | 'not_met'
  | 'failed'
  | 'never_exercised'
  | 'not_applicable'
  | 'not_assessed';

export interface Finding {
  readonly kind: FindingKind;
  readonly text: string;
  readonly situation?: string;
  readonly rule?: string;
  /** Masked curl lines, the conditions not met, the client's output. */
  readonly evidence: readonly string[];
}

export interface ItemResult {
  readonly item: string;
  readonly title: string;
  readonly asks: string;
  readonly rules: readonly string[];
  readonly situations: readonly string[];
  readonly verdict: ItemVerdict;
  readonly findings: readonly Finding[];
}

const BLOCKING: ReadonlySet<FindingKind> = new Set(['violated', 'not_met', 'failed']);

/** The item's rules violated, or warned of, in each situation. */
function violations(item: ChecklistItem, runs: readonly SituationRun[]): Finding[] {
  return runs.flatMap((run) =>
    run.evidence.verdicts
      .filter((v) => item.rules.includes(v.rule) && (v.verdict === 'violated' || v.verdict === 'warning'))
      .map((v) => ({
        kind: v.verdict === 'violated' ? ('violated' as const) : ('warning' as const),
        situation: run.situation,
        rule: v.rule,
        text: `${v.rule} ${v.verdict === 'violated' ? 'violated' : 'warned of'} in ${run.situation}: ${v.summary}`,
        evidence: v.evidence,
      })),
  );
}

function unmet(catalogue: Catalogue, required: readonly string[], runs: readonly SituationRun[]): Finding[] {
  return required.flatMap((id) => {
    const run = runs.find((entry) => entry.situation === id);
    const situation = catalogue.situations.find((entry) => entry.id === id);
    if (!run || !situation || run.met) return [];
    const missing = run.conditions.filter((c) => !c.holds).map((c) => `not seen: ${c.condition}`);
    return [
      {
        kind: 'not_met' as const,
        situation: id,
        text: `never met ${id} (${situation.title}): ${situation.to_meet}`,
        evidence: missing,
      },
    ];
  });
}

/** The command failed in a situation that bears on the item (required by it or not). */
function failures(item: ChecklistItem, catalogue: Catalogue, runs: readonly SituationRun[]): Finding[] {
  const bearing = (id: string) =>
    item.situations.includes(id) || catalogue.situations.find((s) => s.id === id)?.bears_on.includes(item.id);
  return runs
    .filter((run) => run.exitCode !== 0 && bearing(run.situation))
    .map((run) => ({
      kind: 'failed' as const,
      situation: run.situation,
      text: `the client's command exited ${run.exitCode} in ${run.situation}, a situation it should survive`,
      evidence: run.evidence.outputTail,
    }));
}

function neverExercised(item: ChecklistItem, runs: readonly SituationRun[]): Finding[] {
  const exercised = (rule: string) =>
    runs.some((run) => run.evidence.verdicts.some((v) => v.rule === rule && v.verdict !== 'not_exercised'));
  return item.rules
    .filter((rule) => !exercised(rule))
    .map((rule) => ({
      kind: 'never_exercised' as const,
      rule,
      text: `${rule} was never exercised in any situation: traffic cannot show it either way`,
      evidence: [],
    }));
}

/**
 * An item compared with another situation (forward compatibility): each client rule the client broke in
 * one of the item's situations but kept in the compared one (the command's failure is `failures`').
 */
function comparedViolations(item: ChecklistItem, runs: readonly SituationRun[]): Finding[] {
  const base = runs.find((run) => run.situation === item.compared_with);
  if (item.compared_with === undefined || base === undefined) return [];
  const brokenInBase = new Set(
    base.evidence.verdicts.filter((v) => v.verdict === 'violated').map((v) => v.rule),
  );
  return runs
    .filter((run) => item.situations.includes(run.situation))
    .flatMap((run) =>
      run.evidence.verdicts
        .filter((v) => v.verdict === 'violated' && !brokenInBase.has(v.rule))
        .map((v) => ({
          kind: 'violated' as const,
          situation: run.situation,
          rule: v.rule,
          text: `${v.rule} violated in ${run.situation}, kept in ${base.situation}: ${v.summary}`,
          evidence: v.evidence,
        })),
    );
}

function declared(declarations: readonly NotApplicable[]): Finding[] {
  return declarations.map((d) => ({
    kind: 'not_applicable' as const,
    ...(d.situation !== undefined && { situation: d.situation }),
    text: `${d.situation === undefined ? 'the item' : d.situation} declared not applicable: ${d.reason}`,
    evidence: [],
  }));
}

function verdictOf(findings: readonly Finding[]): ItemVerdict {
  if (findings.some((f) => BLOCKING.has(f.kind))) return 'not_ready';
  if (findings.some((f) => f.kind === 'not_assessed')) return 'not_assessed';
  return findings.length > 0 ? 'ready_with_risks' : 'ready';
}

function itemFindings(
  item: ChecklistItem,
  catalogue: Catalogue,
  runs: readonly SituationRun[],
  declarations: readonly NotApplicable[],
  ruleIds: ReadonlySet<string>,
): Finding[] {
  const gaps = itemGaps(item, catalogue, ruleIds);
  if (gaps.length > 0) return gaps.map((text) => ({ kind: 'not_assessed', text, evidence: [] }));
  const mine = declarations.filter((d) => d.item === item.id);
  if (mine.some((d) => d.situation === undefined))
    return [...violations(item, runs), ...declared(mine.filter((d) => d.situation === undefined))];
  const excused = new Set(mine.map((d) => d.situation));
  const compared = item.compared_with === undefined ? [] : [item.compared_with];
  const required = [...item.situations, ...compared].filter((id) => !excused.has(id));
  const notRun = required.filter((id) => !runs.some((run) => run.situation === id));
  // What was run still counts against the item: a violation or a failure is Not ready anyway.
  if (notRun.length > 0)
    return [
      ...violations(item, runs),
      ...comparedViolations(item, runs),
      ...unmet(catalogue, required, runs),
      ...failures(item, catalogue, runs),
      ...notRun.map((id) => ({
        kind: 'not_assessed' as const,
        text: `situation ${id} was not run (--situations)`,
        evidence: [],
      })),
    ];
  return [
    ...violations(item, runs),
    ...comparedViolations(item, runs),
    ...unmet(catalogue, required, runs),
    ...failures(item, catalogue, runs),
    ...neverExercised(item, runs),
    ...declared(mine),
  ];
}

/** Every item of the checklist with its verdict and findings, in the checklist's order. */
export function itemVerdicts(
  catalogue: Catalogue,
  runs: readonly SituationRun[],
  declarations: readonly NotApplicable[] = [],
  ruleIds: ReadonlySet<string> = CLIENT_RULE_IDS,
): ItemResult[] {
  return catalogue.items.map((item) => {
    const findings = itemFindings(item, catalogue, runs, declarations, ruleIds);
    return {
      item: item.id,
      title: item.title,
      asks: item.asks,
      rules: item.rules,
      situations: item.situations,
      verdict: verdictOf(findings),
      findings,
    };
  });
}
