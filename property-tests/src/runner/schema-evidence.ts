/**
 * A SCHEMA row's verdict needs evidence: its runs validate whatever the target answered, but a row whose
 * operation never answered a success status proved nothing about the operation (a server that answers a
 * valid 404 everywhere would pass every row). Once the whole run is over, a row that did not fail passes
 * only when the run's coverage saw its operation answer a documented success status with a valid body
 * (from the row's own requests or any rule's); otherwise it is `inconclusive`, "not implemented?".
 * A row that answered only "not found" (its runs inconclusive) is judged the same way. A list's or a
 * retrieval's row needs a record too: a server answering `[]` and empty pages everywhere shows every
 * success status with a valid body, and not one record's shape; such a row is `inconclusive`.
 */
import type { Coverage, OperationCoverage } from './coverage.js';
import type { RuleResult } from './run-rule.js';

/** The reason of a row whose operation never answered a success status. */
export const NO_SUCCESS = 'no success answer: not implemented?';
/** The note of a list that stays empty in the target's environment. */
const NO_RECORDS_HERE = 'no record to check in this environment';
/** The reason of a row whose operation's success answers were all empty lists. */
export const NO_RECORDS = 'every success answer was an empty list: no record was checked against the schema';

const counts = (statuses: Record<string, number>) =>
  Object.entries(statuses).map(([status, n]) => `${status}x${n}`);

/** `404x6` (and the invalid or undocumented answers), for the reason. */
function answered(entry: OperationCoverage | undefined): string {
  if (!entry) return 'nothing';
  const valid = counts(entry.exhibited);
  const invalid = counts(entry.invalid);
  const parts = [
    ...(valid.length > 0 ? [valid.join(', ')] : []),
    ...(invalid.length > 0 ? [`invalid or undocumented ${invalid.join(', ')}`] : []),
  ];
  return parts.join('; ') || 'nothing';
}

function settle(
  result: RuleResult,
  coverage: Map<string, OperationCoverage>,
  emptyLists: ReadonlyMap<string, string>,
): RuleResult {
  // Failed and skipped rows keep their verdict; a passed or inconclusive one is judged on the evidence.
  const open = result.status === 'passed' || result.status === 'inconclusive';
  if (result.operationId === undefined || !open) return result;
  const entry = coverage.get(result.operationId);
  if (!entry?.success) {
    return { ...result, status: 'inconclusive', reason: `${NO_SUCCESS} (answered ${answered(entry)})` };
  }
  const alwaysEmpty = entry.emptyListsOnly ? emptyLists.get(result.operationId) : undefined;
  if (entry.emptyListsOnly && alwaysEmpty === undefined) {
    return { ...result, status: 'inconclusive', reason: `${NO_RECORDS} (answered ${answered(entry)})` };
  }
  // A list nothing can fill in the target's environment: its answers show what that environment can.
  const noted =
    alwaysEmpty === undefined
      ? result
      : { ...result, notes: [...result.notes, `${NO_RECORDS_HERE}: ${alwaysEmpty}`] };
  const own = noted.notes.some((note) => /^statuses seen: .*\b2\d\dx/.test(note));
  if (own) return noted;
  // The row's own requests got no success, other rules' did (state the row cannot build on its own):
  // said first, so that no report shows "passed" beside the row's error statuses alone.
  const success = counts(entry.exhibited).filter((count) => count.startsWith('2'));
  const { reason: _reason, ...rest } = noted;
  return {
    ...rest,
    status: 'passed',
    notes: [`success shown by other rules' requests: ${success.join(', ')}`, ...noted.notes],
  };
}

/**
 * The results with every passed SCHEMA row held to its operation's coverage; `emptyLists`: the lists
 * that stay empty in the target's environment (operationId -> why), which need no record.
 */
export function settleSchemaRows(
  results: readonly RuleResult[],
  coverage: Coverage,
  emptyLists: ReadonlyMap<string, string> = new Map(),
): RuleResult[] {
  const byOperation = new Map(coverage.perOperation.map((entry) => [entry.operationId, entry]));
  return results.map((result) => settle(result, byOperation, emptyLists));
}
