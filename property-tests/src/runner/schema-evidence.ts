/**
 * A SCHEMA row's verdict needs evidence: its runs validate whatever the target answered, but a row whose
 * operation never answered a success status proved nothing about the operation (a server that answers a
 * valid 404 everywhere would pass every row). Once the whole run is over, a row that did not fail passes
 * only when the run's coverage saw its operation answer a documented success status with a valid body
 * (from the row's own requests or any rule's); otherwise it is `inconclusive`, "not implemented?".
 * A row that answered only "not found" (its runs inconclusive) is judged the same way.
 */
import type { Coverage, OperationCoverage } from './coverage.js';
import type { RuleResult } from './run-rule.js';

/** The reason of a row whose operation never answered a success status. */
export const NO_SUCCESS = 'no success answer: not implemented?';

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

function settle(result: RuleResult, coverage: Map<string, OperationCoverage>): RuleResult {
  // Failed and skipped rows keep their verdict; a passed or inconclusive one is judged on the evidence.
  const open = result.status === 'passed' || result.status === 'inconclusive';
  if (result.operationId === undefined || !open) return result;
  const entry = coverage.get(result.operationId);
  if (!entry?.success) {
    return { ...result, status: 'inconclusive', reason: `${NO_SUCCESS} (answered ${answered(entry)})` };
  }
  const own = result.notes.some((note) => /^statuses seen: .*\b2\d\dx/.test(note));
  if (own) return result;
  // The row's own requests got no success, other rules' did (state the row cannot build on its own).
  const success = counts(entry.exhibited).filter((count) => count.startsWith('2'));
  const { reason: _reason, ...rest } = result;
  return {
    ...rest,
    status: 'passed',
    notes: [...result.notes, `success shown by other rules' requests: ${success.join(', ')}`],
  };
}

/** The results with every passed SCHEMA row held to its operation's coverage. */
export function settleSchemaRows(results: readonly RuleResult[], coverage: Coverage): RuleResult[] {
  const byOperation = new Map(coverage.perOperation.map((entry) => [entry.operationId, entry]));
  return results.map((result) => settle(result, byOperation));
}
