/**
 * The operations' verdicts, read from their SCHEMA rows: an operation passed when its row passed (it
 * answered a success status with a valid body), is "not implemented" when it never answered a success
 * status, failed when its row failed, and skipped (the config's exclusion, or unavailable in the
 * target's environment). Only operations whose row ran are counted: `--rules API-ROOT` says nothing of
 * the operations.
 */
import type { RuleResult } from '../runner/run-rule.js';
import { NO_SUCCESS } from '../runner/schema-evidence.js';

export type OperationVerdict =
  | 'passed'
  | 'not implemented'
  | 'inconclusive'
  | 'failed'
  | 'skipped'
  | 'unavailable';

export interface OperationEntry {
  operationId: string;
  verdict: OperationVerdict;
  /** The row's reason or failure (what the operation answered). */
  reason: string;
}

const VERDICTS: readonly OperationVerdict[] = [
  'passed',
  'not implemented',
  'inconclusive',
  'failed',
  'skipped',
  'unavailable',
];

function verdictOf(result: RuleResult): OperationVerdict {
  if (result.status === 'inconclusive')
    return result.reason?.startsWith(NO_SUCCESS) ? 'not implemented' : 'inconclusive';
  if (result.status === 'skipped (environment)') return 'unavailable';
  return result.status;
}

/** One entry per SCHEMA row of the run, in report order. */
export function operationEntries(results: readonly RuleResult[]): OperationEntry[] {
  return results
    .filter((result) => result.operationId !== undefined)
    .map((result) => ({
      operationId: result.operationId!,
      verdict: verdictOf(result),
      reason: result.reason ?? result.failure?.message.split('\n')[0] ?? '',
    }));
}

/** How many operations got each verdict (every verdict named, zeros included). */
export function countVerdicts(entries: readonly OperationEntry[]): Record<OperationVerdict, number> {
  const counts = Object.fromEntries(VERDICTS.map((verdict) => [verdict, 0])) as Record<
    OperationVerdict,
    number
  >;
  for (const entry of entries) counts[entry.verdict] += 1;
  return counts;
}

/** `operations: 3 passed, 144 not implemented (never answered a success status)`, zeros left out. */
export function operationsLine(entries: readonly OperationEntry[], environment: string): string {
  const counts = countVerdicts(entries);
  const words: Record<OperationVerdict, string> = {
    passed: 'passed',
    'not implemented': 'not implemented (never answered a success status)',
    inconclusive: 'inconclusive',
    failed: 'failed',
    skipped: 'skipped by the config',
    unavailable: `unavailable in the ${environment} (skipped)`,
  };
  const parts = VERDICTS.filter((verdict) => verdict === 'passed' || counts[verdict] > 0).map(
    (verdict) => `${counts[verdict]} ${words[verdict]}`,
  );
  return `operations: ${parts.join(', ')}`;
}
