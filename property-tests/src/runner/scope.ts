/**
 * The run's scope: the operations it checks. `--operations GLOB,...` (or the config's
 * `operations.include`) names them by operationId or tag (`!` excludes, matching ignores case), and the
 * config's `operations.exclude` takes some out. A rule is in scope when every operation it cannot do
 * without is, and, for a rule over a kind of operation (lists, retrievals), when one of that kind is; a
 * SCHEMA row when its operation is. Rules out of scope are not run: the report says how many.
 */
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import type { Rule } from '../rules/rule.js';
import { matchesRules } from './select-rules.js';

/** The operation matches `patterns` (globs on its operationId or any of its tags; `!` excludes). */
export function matchesOperation(operation: ApiOperation, patterns: readonly string[]): boolean {
  const globs = patterns.flatMap((pattern) => pattern.split(',')).map((glob) => glob.trim());
  const names = [operation.operationId, ...tagsOf(operation)];
  const included = globs.filter((glob) => glob !== '' && !glob.startsWith('!'));
  const excluded = globs.filter((glob) => glob.startsWith('!')).map((glob) => glob.slice(1));
  const wanted = included.length === 0 || names.some((name) => matchesRules(name, included));
  return wanted && !names.some((name) => excluded.length > 0 && matchesRules(name, excluded));
}

function tagsOf(operation: ApiOperation): string[] {
  const tags = operation.raw.tags;
  return Array.isArray(tags) ? tags.filter((tag): tag is string => typeof tag === 'string') : [];
}

/** The operations of the scope: those `include` names (all when empty), less those `exclude` names. */
export function scopedOperations(
  operations: readonly ApiOperation[],
  include: readonly string[],
  exclude: readonly string[],
): ApiOperation[] {
  return operations.filter(
    (operation) =>
      (include.length === 0 || matchesOperation(operation, include)) &&
      (exclude.length === 0 || !matchesOperation(operation, exclude)),
  );
}

/** Whether a rule has what it needs in `operations` (the scope's). */
export function ruleInScope(rule: Rule, operations: readonly ApiOperation[]): boolean {
  const ids = new Set(operations.map((operation) => operation.operationId));
  if (rule.operationId !== undefined) return ids.has(rule.operationId);
  if (!rule.operations.every((id) => ids.has(id))) return false;
  return rule.over === undefined || operations.some(rule.over);
}
