/**
 * The catalogue of breakable rules: every server rule ID of the rule catalogue (all but CLIENT-*), with
 * the way a real server gets it wrong. `--break RULE-ID` (and `createSimulator({ brokenRules })`) turns
 * that fault on, so the conformance suite can be shown to catch it (the teeth matrix); a rule got wrong
 * in more than one realistic way names each other way, `--break RULE-ID:name`. Each break is a
 * realistic mistake, small and local, never a crash: a value of the rule policy, or a wrapper of an edge
 * (authentication, routing, validation, a handler's input or answer, serialization, events, delivery).
 * This folder is the only place that names a rule ID to break it.
 */
import type { RulePolicy } from '../core/rule-policy.js';
import { CROSS_CUTTING_BREAKS } from './cross-cutting-breaks.js';
import { DATA_BREAKS } from './data-breaks.js';
import type { BreakContext, Edges, RuleBreak, RuleBreaks } from './edges.js';
import { LINK_BREAKS } from './link-breaks.js';
import { PAYMENT_BREAKS } from './payment-breaks.js';
import { WEBHOOK_BREAKS } from './webhook-breaks.js';

/** Every rule's breaks, in the rule catalogue's order (its areas, then its rows). */
const BREAKS = {
  ...CROSS_CUTTING_BREAKS,
  ...LINK_BREAKS,
  ...DATA_BREAKS,
  ...WEBHOOK_BREAKS,
  ...PAYMENT_BREAKS,
} satisfies Record<string, RuleBreaks>;

export type BreakableRuleId = keyof typeof BREAKS;

/**
 * Server rules of the rule catalogue that no break here can show caught, each with why (a rule whose
 * evidence no server's answers can carry). Every other server rule has its break, and the teeth matrix
 * runs it: `tests/house/rule-completeness.test.ts` holds both. None so far.
 */
export const UNBREAKABLE_RULES: Readonly<Record<string, string>> = Object.freeze({});

/** What `--break` takes: a rule ID (its first break) or `RULE-ID:name` (another break of that rule). */
export type BreakName = string;

/** The breaks a simulator applies on purpose, by name; typed, so a switch names a known break. */
export type BrokenRules = ReadonlySet<BreakName>;

export const BREAKABLE_RULE_IDS = Object.keys(BREAKS) as BreakableRuleId[];

/** One break as `--break`, `simulate --help` and the README's teeth matrix show it. */
export interface BreakListing {
  /** `RULE-ID`, or `RULE-ID:name` for a rule's other breaks. */
  readonly name: BreakName;
  readonly rule: BreakableRuleId;
  readonly description: string;
}

const breakOf = new Map<BreakName, RuleBreak>();

/** Every break, each rule's first break before its named ones, in the catalogue's order. */
export const BREAK_LISTINGS: readonly BreakListing[] = BREAKABLE_RULE_IDS.flatMap((rule) => {
  const entry: RuleBreaks = BREAKS[rule];
  const named = Object.entries(entry.variants ?? {}).map(([name, variant]) => ({
    name: `${rule}:${name}`,
    variant,
  }));
  return [{ name: rule as BreakName, variant: entry as RuleBreak }, ...named].map(({ name, variant }) => {
    breakOf.set(name, variant);
    return Object.freeze({ name, rule, description: variant.description });
  });
});

/** Rule ID -> its first break, one line (the README's teeth matrix shows the same lines). */
export const BREAKABLE_RULES = Object.fromEntries(
  BREAKABLE_RULE_IDS.map((id) => [id, BREAKS[id].description]),
) as Record<BreakableRuleId, string>;

export const isBreakableRule = (id: string): id is BreakableRuleId => Object.hasOwn(BREAKS, id);

/** An ID `--break` does not know; the message lists the known ones on one line. */
export class UnknownRuleError extends Error {
  override name = 'UnknownRuleError';
}

/** Why `name` is no break of the catalogue: the rule's other breaks, or every rule, on one line. */
function unknownBreak(name: string): string {
  const [rule, variant] = name.split(':', 2) as [string, string | undefined];
  if (variant !== undefined && isBreakableRule(rule)) {
    const known = BREAK_LISTINGS.filter((listing) => listing.rule === rule).map((listing) => listing.name);
    return `--break: ${rule} has no break "${variant}"; its breaks: ${known.join(', ')}`;
  }
  return `--break: unknown rule "${name}"; breakable rules: ${BREAKABLE_RULE_IDS.join(', ')} (RULE-ID:name for a rule's other breaks: simulate --help lists them)`;
}

/** Checks the names against the catalogue; throws UnknownRuleError naming the first unknown one. */
export function parseBrokenRules(names: readonly string[]): BrokenRules {
  const unknown = names.find((name) => !breakOf.has(name));
  if (unknown !== undefined) throw new UnknownRuleError(unknownBreak(unknown));
  return new Set(names);
}

/** The simulator's option, and `ofkit simulate`'s `--break RULE-ID[:name]`, that breaks rules on purpose. */
export interface BrokenRulesOption {
  /**
   * Rule IDs to break on purpose (proves the conformance suite and Pact verification catch it); an ID
   * the break catalogue does not know throws UnknownRuleError.
   */
  readonly brokenRules?: readonly string[];
}

/** The breaks `options` asks for (none when it names none); throws UnknownRuleError as parseBrokenRules. */
export const breaksAskedBy = (options: BrokenRulesOption): BrokenRules =>
  parseBrokenRules(options.brokenRules ?? []);

/** `--break`'s names as the simulator's option, checked against the catalogue and frozen. */
export const breakOption = (names: readonly string[]): Required<BrokenRulesOption> =>
  Object.freeze({ brokenRules: Object.freeze([...parseBrokenRules(names)]) });

/** The policy and the edges of a simulator that breaks `broken` on purpose (the same as given for none). */
export function applyBreaks(
  broken: BrokenRules,
  policy: RulePolicy,
  edges: Edges,
  context: BreakContext,
): { policy: RulePolicy; edges: Edges } {
  let applied = { policy, edges };
  for (const name of broken) {
    const rule = breakOf.get(name);
    if (rule === undefined) throw new UnknownRuleError(unknownBreak(name));
    applied = {
      policy: rule.policy ? rule.policy(applied.policy) : applied.policy,
      edges: rule.edges ? rule.edges(applied.edges, context) : applied.edges,
    };
  }
  return applied;
}
