/**
 * A rule that calls operations the target's config leaves out (`operations.exclude`: what the target
 * does not implement) is skipped and says which, rather than failing on answers to requests it was
 * told not to send.
 */
import { type Skip, type SuiteContext, skip } from './rule.js';

/** The skip naming the operations the config left out, when any of `operationIds` is. */
export function missingOperations(suite: SuiteContext, operationIds: readonly string[]): Skip | undefined {
  const present = new Set(suite.operations.map((operation) => operation.operationId));
  const missing = operationIds.filter((id) => !present.has(id));
  return missing.length === 0 ? undefined : skip(`needs ${missing.join(', ')}, left out by the config`);
}
