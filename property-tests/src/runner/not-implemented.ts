/**
 * Not implemented is not failed. Once every rule has run, an operation is *not implemented* when it
 * never answered a success status and answered only 404, 405 or 501 (answers to requests without valid
 * credentials aside: a server checks those first). An operation on one record (a path with an id) is
 * judged so only when its SCHEMA row ran, which asks for a record known to exist first: otherwise its
 * 404s may only say that the ids a rule asked for were gone. Then:
 *
 * - a rule that cannot do without such an operation (`operations`), or whose kind of operation
 *   (`over`) the target implements none of, is `inconclusive`: "not implemented: METHOD path";
 * - a rule that failed on an answer of such an operation (a rule over every operation, or every list,
 *   meeting a path the server lacks) runs again without the operations not implemented, and its
 *   verdict is that run's: a failure there is one on evidence.
 *
 * SCHEMA rows are judged by their own evidence (schema-evidence.ts).
 */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import type { Rule } from '../rules/rule.js';
import type { Coverage } from './coverage.js';
import type { RuleResult } from './run-rule.js';

/** What a server answers for a route it does not have. */
const NOT_ROUTED = new Set(['404', '405', '501']);
/** Answers that say nothing of the route: the credentials are checked before it. */
const UNAUTHENTICATED = new Set(['401']);
/** How many operations a reason names before "and N more". */
const NAMED = 3;

/**
 * The operations not implemented (operationId -> `METHOD path`), read from the run's coverage;
 * `rowsRun`: the operations whose SCHEMA row ran.
 */
export function notImplementedOperations(
  coverage: Coverage,
  rowsRun: ReadonlySet<string>,
): Map<string, string> {
  const found = new Map<string, string>();
  for (const entry of coverage.perOperation) {
    if (entry.success || entry.unavailable !== undefined) continue;
    if (entry.path.includes('{') && !rowsRun.has(entry.operationId)) continue;
    const answered = [...Object.keys(entry.exhibited), ...Object.keys(entry.invalid)].filter(
      (status) => !UNAUTHENTICATED.has(status),
    );
    if (answered.length > 0 && answered.every((status) => NOT_ROUTED.has(status)))
      found.set(entry.operationId, `${entry.method} ${entry.path}`);
  }
  return found;
}

/** `not implemented: GET /a/, POST /b/ (and 4 more)`. */
export function notImplementedReason(routes: readonly string[]): string {
  const more = routes.length > NAMED ? ` (and ${routes.length - NAMED} more)` : '';
  return `not implemented: ${routes.slice(0, NAMED).join(', ')}${more}`;
}

export interface Settling {
  notImplemented: ReadonlyMap<string, string>;
  /** The run's operations. */
  operations: readonly ApiOperation[];
  /** The operations a failure's requests (set-up included) were of. */
  touched(result: RuleResult): string[];
  /** The rule run again over `operations`. */
  rerun(rule: Rule, operations: ApiOperation[]): Promise<RuleResult>;
}

function inconclusive(result: RuleResult, routes: readonly string[]): RuleResult {
  const { failure, ...rest } = result;
  const failed = failure ? [`it failed meanwhile: ${failure.message.split('\n')[0]}`] : [];
  return {
    ...rest,
    status: 'inconclusive',
    reason: notImplementedReason(routes),
    notes: [...rest.notes, ...failed],
  };
}

/** The routes the rule cannot do without that are not implemented (all of its kind, for `over`). */
function missingRoutes(rule: Rule, settling: Settling): string[] {
  const { notImplemented } = settling;
  const needed = rule.operations.flatMap((id) => notImplemented.get(id) ?? []);
  if (needed.length > 0 || rule.over === undefined) return needed;
  const kind = settling.operations.filter(rule.over);
  const lacking = kind.filter((operation) => notImplemented.has(operation.operationId));
  return kind.length > 0 && lacking.length === kind.length
    ? lacking.map((op) => notImplemented.get(op.operationId)!)
    : [];
}

/** The verdict of a rule that failed on an operation not implemented: its run without them. */
async function rerun(rule: Rule, result: RuleResult, settling: Settling): Promise<RuleResult> {
  const { notImplemented } = settling;
  const met = [...new Set(settling.touched(result))].flatMap((id) => notImplemented.get(id) ?? []);
  if (met.length === 0) return result;
  const left = settling.operations.filter((operation) => !notImplemented.has(operation.operationId));
  const again = await settling.rerun(rule, left);
  const durationMs = result.durationMs + again.durationMs;
  if (again.status === 'skipped') return inconclusive({ ...result, durationMs }, met);
  const note = `run again without the ${notImplemented.size} operations not implemented (${notImplementedReason(met)})`;
  return { ...again, durationMs, notes: [...again.notes, note] };
}

/** The results with every rule that met an operation not implemented settled as above. */
export async function settleNotImplemented(
  results: readonly RuleResult[],
  rules: ReadonlyMap<string, Rule>,
  settling: Settling,
): Promise<RuleResult[]> {
  if (settling.notImplemented.size === 0) return [...results];
  const settled: RuleResult[] = [];
  for (const result of results) {
    const rule = rules.get(result.id);
    const open = result.status === 'passed' || result.status === 'failed' || result.status === 'inconclusive';
    if (!rule || rule.operationId !== undefined || !open) {
      settled.push(result);
      continue;
    }
    const missing = missingRoutes(rule, settling);
    if (missing.length > 0) settled.push(inconclusive(result, missing));
    else settled.push(result.status === 'failed' ? await rerun(rule, result, settling) : result);
  }
  return settled;
}
