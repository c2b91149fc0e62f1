/**
 * One rule's set-up, before any run: the capabilities it needs (a control API kept from a tenant holding
 * others' state makes it inconclusive, not skipped: it could run on a tenant of its own), the operations
 * it cannot do without, then its `prepare` in a recording session of its own, so that a failed set-up
 * shows what it asked for. A PreparedRule, or how the rule ends.
 */
import type { Exchange, HttpClient } from '../http/http-client.js';
import { isSkip, type PreparedRule, type Rule, type SuiteContext, Violation } from '../rules/rule.js';
import { missingCapability } from '../target/capabilities.js';

/** How a rule ends before its runs: its status and reason, or (failed) the message and exchanges. */
export interface SetUpEnd {
  status: 'skipped' | 'skipped (environment)' | 'inconclusive' | 'failed';
  reason?: string;
  message?: string;
  exchanges: Exchange[];
}

/** The operations the rule cannot do without that the run's operations lack. */
function lacking(rule: Rule, suite: SuiteContext): string[] {
  const present = new Set(suite.operations.map((operation) => operation.operationId));
  return rule.operations.filter((id) => !present.has(id));
}

const errorText = (error: unknown) =>
  error instanceof Violation ? error.message : `error: ${(error as Error)?.message ?? String(error)}`;

export async function setUpRule(
  rule: Rule,
  suite: SuiteContext,
  client: HttpClient,
): Promise<PreparedRule | SetUpEnd> {
  const missing = rule.needs.map((need) => missingCapability(suite.capabilities, need)).find(Boolean);
  const shared = suite.capabilities.sharedTenant && rule.needs.includes('control-api');
  if (missing) return { status: shared ? 'inconclusive' : 'skipped', reason: missing, exchanges: [] };
  const absent = lacking(rule, suite);
  if (absent.length > 0)
    return { status: 'skipped', reason: `needs ${absent.join(', ')}, out of scope`, exchanges: [] };
  const session = client.session();
  try {
    const prepared = await rule.prepare({ ...suite, http: session });
    if (!isSkip(prepared)) return prepared;
    const status = prepared.environment
      ? 'skipped (environment)'
      : prepared.inconclusive
        ? 'inconclusive'
        : 'skipped';
    return { status, reason: prepared.skip, exchanges: [] };
  } catch (error) {
    return { status: 'failed', message: `set-up failed: ${errorText(error)}`, exchanges: session.exchanges };
  }
}
