/**
 * The lines that say what the run covered: its scope (when narrowed, or when rules were left out), and,
 * after a run where most rules were inconclusive because the target does not implement what they need,
 * one line on how to scope the run to what it does implement and how to make it strict.
 */

import { shellQuote } from '../../../openapi/security/shell-quote.js';
import type { SuiteResult } from '../runner/run-suite.js';
import { NO_SUCCESS } from '../runner/schema-evidence.js';

/** `scope: 5 of 147 operations (--operations); 160 rules out of scope, not run`, or nothing. */
export function scopeLine(suite: SuiteResult): string | undefined {
  const { operations, of, includeFrom, outOfScope } = suite.scope;
  if (operations === of && outOfScope.length === 0) return undefined;
  const narrowed = includeFrom ? ` (${includeFrom})` : '';
  const left =
    outOfScope.length > 0
      ? `; ${outOfScope.length} rules out of scope, not run (they need other operations)`
      : '';
  return `scope: ${operations} of ${of} operations${narrowed}${left}`;
}

const notImplemented = (reason: string | undefined) =>
  reason !== undefined && (reason.startsWith('not implemented:') || reason.startsWith(NO_SUCCESS));

/** The hint after a run whose rules were mostly inconclusive as not implemented, or nothing. */
export function scopeHint(suite: SuiteResult): string | undefined {
  const run = suite.results.filter((r) => r.status !== 'skipped' && r.status !== 'skipped (environment)');
  const missing = run.filter((r) => r.status === 'inconclusive' && notImplemented(r.reason));
  if (missing.length * 2 <= run.length || suite.notImplemented.length === 0) return undefined;
  const implemented = suite.coverage.perOperation.filter((op) => op.success).map((op) => op.operationId);
  const scope =
    implemented.length > 0
      ? `check what it implements with --operations ${shellQuote(implemented.join(','))} (or operations.include in a --config file)`
      : 'name the operations it implements with --operations (or operations.include in a --config file)';
  return `hint: ${missing.length} of ${run.length} rules are inconclusive because the target does not implement ${suite.notImplemented.length} of ${suite.scope.operations} operations: ${scope}; add --strict to fail the run on what stays inconclusive`;
}
