/**
 * The catalogue of breakable rules: every server rule ID of the rule catalogue (all but CLIENT-*), with
 * the way a real server gets it wrong. `--break RULE-ID` (and `createSimulator({ brokenRules })`) turns
 * that fault on, so the conformance suite can be shown to catch it (the teeth matrix). Each break is a
 * realistic mistake, small and local, never a crash: a value of the rule policy, or a wrapper of an edge
 * (authentication, routing, validation, a handler's input or answer, serialization, events, delivery).
 * This folder is the only place that names a rule ID to break it.
 */
import type { RulePolicy } from '../core/rule-policy.js';
import { CROSS_CUTTING_BREAKS } from './cross-cutting-breaks.js';
import { DATA_BREAKS } from './data-breaks.js';
import type { BreakContext, Edges, RuleBreak } from './edges.js';
import { LINK_BREAKS } from './link-breaks.js';
import { PAYMENT_BREAKS } from './payment-breaks.js';
import { WEBHOOK_BREAKS } from './webhook-breaks.js';

/** Every break, in the rule catalogue's order (its areas, then its rows). */
const BREAKS = {
  ...CROSS_CUTTING_BREAKS,
  ...LINK_BREAKS,
  ...DATA_BREAKS,
  ...WEBHOOK_BREAKS,
  ...PAYMENT_BREAKS,
} satisfies Record<string, RuleBreak>;

export type BreakableRuleId = keyof typeof BREAKS;

/** The rules a simulator breaks on purpose; typed, so a switch names a known rule. */
export type BrokenRules = ReadonlySet<BreakableRuleId>;

export const BREAKABLE_RULE_IDS = Object.keys(BREAKS) as BreakableRuleId[];

/** Rule ID -> the realistic break, one line (the README's teeth matrix shows the same lines). */
export const BREAKABLE_RULES = Object.fromEntries(
  BREAKABLE_RULE_IDS.map((id) => [id, BREAKS[id].description]),
) as Record<BreakableRuleId, string>;

export const isBreakableRule = (id: string): id is BreakableRuleId => Object.hasOwn(BREAKS, id);

/** An ID `--break` does not know; the message lists the known ones on one line. */
export class UnknownRuleError extends Error {
  override name = 'UnknownRuleError';
}

/** Checks the IDs against the catalogue; throws UnknownRuleError naming the unknown and the known ones. */
export function parseBrokenRules(ids: readonly string[]): BrokenRules {
  const unknown = ids.filter((id) => !isBreakableRule(id));
  if (unknown.length > 0) {
    const which = unknown.map((id) => `"${id}"`).join(', ');
    throw new UnknownRuleError(
      `--break: unknown rule ${which}; breakable rules: ${BREAKABLE_RULE_IDS.join(', ')}`,
    );
  }
  return new Set(ids as BreakableRuleId[]);
}

/** The policy and the edges of a simulator that breaks `broken` on purpose (the same as given for none). */
export function applyBreaks(
  broken: BrokenRules,
  policy: RulePolicy,
  edges: Edges,
  context: BreakContext,
): { policy: RulePolicy; edges: Edges } {
  let applied = { policy, edges };
  for (const id of broken) {
    const rule: RuleBreak = BREAKS[id];
    applied = {
      policy: rule.policy ? rule.policy(applied.policy) : applied.policy,
      edges: rule.edges ? rule.edges(applied.edges, context) : applied.edges,
    };
  }
  return applied;
}
