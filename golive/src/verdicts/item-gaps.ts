/**
 * Why a checklist item cannot be assessed yet: no client rule or no situation decides it, or it names a
 * rule the judge does not grade or a situation the catalogue lacks (a newer checklist's, a rule still to
 * come). Such an item is "not assessed", never Ready.
 */
import { RULES } from '../../../openapi/generated/rules.js';
import type { Catalogue, ChecklistItem } from '../catalogue/catalogue-types.js';

/** The client rules the judge grades (openapi/rules.yaml, `side: client`). */
export const CLIENT_RULE_IDS: ReadonlySet<string> = new Set(
  RULES.filter((rule) => rule.side === 'client').map((rule) => rule.id),
);

/** What the item waits for, one sentence each; empty when it can be assessed. */
export function itemGaps(
  item: ChecklistItem,
  catalogue: Catalogue,
  ruleIds: ReadonlySet<string> = CLIENT_RULE_IDS,
): string[] {
  const gaps: string[] = [];
  if (item.rules.length === 0 && item.compared_with === undefined) gaps.push('no client rule decides it yet');
  if (item.compared_with !== undefined && !catalogue.situations.some((s) => s.id === item.compared_with))
    gaps.push(`situation ${item.compared_with} does not exist yet`);
  for (const rule of item.rules) if (!ruleIds.has(rule)) gaps.push(`client rule ${rule} does not exist yet`);
  if (item.situations.length === 0) gaps.push('no situation shows it yet');
  for (const id of item.situations) {
    const situation = catalogue.situations.find((entry) => entry.id === id);
    if (!situation) {
      gaps.push(`situation ${id} does not exist yet`);
      continue;
    }
    for (const condition of situation.met_when)
      if ('exercised' in condition && !ruleIds.has(condition.exercised))
        gaps.push(
          `situation ${id} is met through client rule ${condition.exercised}, which does not exist yet`,
        );
  }
  if (gaps.length > 0 && item.needs !== undefined) gaps.push(`it needs ${item.needs}`);
  return gaps;
}
