/**
 * Whether the client met a situation: each condition of its `met_when` read from the judge's report (a
 * rule exercised: followed or violated, not "not exercised"), from the request log (a request answered
 * with a status) and from what the simulator knows of the run (deliveries still held back, a life
 * played to its end). A situation armed and never reached is "not met", never passed.
 */
import {
  type JudgeReport,
  listFollowedToTheEnd,
  type ObservedRequest,
} from '../../../simulator/src/judge/judge.js';
import type { MetCondition } from '../catalogue/catalogue-types.js';
import type { SituationFacts } from './situation-simulator.js';

export interface ConditionOutcome {
  /** The condition in words. */
  readonly condition: string;
  readonly holds: boolean;
  /** The condition names a client rule the judge does not grade (yet): it cannot hold. */
  readonly missingRule?: string;
}

/** The condition in words, as the bundle shows it. */
export function conditionText(condition: MetCondition): string {
  if ('exercised' in condition) return `the client judge exercised ${condition.exercised}`;
  if ('list_read_to_the_end' in condition) return 'a list read through next to the page whose next is null';
  if ('held_deliveries_delivered' in condition)
    return 'every delivery held back delivered before the client ended';
  if ('life_played_to_the_end' in condition)
    return "the recurrent link's life played to its end while the client ran";
  const { operation, status, code } = condition.answered;
  const what = operation === undefined ? 'a request' : `a request of ${operation}`;
  return `${what} answered ${status.join(' or ')}${code === undefined ? '' : ` ${code}`}`;
}

function holds(
  condition: MetCondition,
  report: JudgeReport,
  requests: readonly ObservedRequest[],
  facts: SituationFacts,
) {
  if ('exercised' in condition) {
    const verdict = report.verdicts.find((v) => v.rule === condition.exercised);
    if (verdict === undefined) return { holds: false, missingRule: condition.exercised };
    return { holds: verdict.verdict !== 'not_exercised' };
  }
  // PAGE-DEFAULT: a client that reads the first pages and stops has not met a situation of many pages.
  if ('list_read_to_the_end' in condition) return { holds: listFollowedToTheEnd(requests).met };
  // A late event the client never heard of: its test ended before the delivery could come.
  if ('held_deliveries_delivered' in condition) return { holds: facts.heldUndelivered === 0 };
  if ('life_played_to_the_end' in condition) return { holds: facts.lifeEnded === true };
  const { operation, status, code } = condition.answered;
  const answered = requests.some(
    ({ entry }) =>
      (operation === undefined || entry.operation_id === operation) &&
      status.includes(entry.status) &&
      (code === undefined || entry.error_code === code),
  );
  return { holds: answered };
}

/** Each condition with whether it held in the run the report and the requests come from. */
export function metConditions(
  conditions: readonly MetCondition[],
  report: JudgeReport,
  requests: readonly ObservedRequest[],
  facts: SituationFacts = { heldUndelivered: 0 },
): ConditionOutcome[] {
  return conditions.map((condition) => ({
    condition: conditionText(condition),
    ...holds(condition, report, requests, facts),
  }));
}
