/**
 * The JSON report: the run (target, environment, seed, capabilities, totals), the operations' verdicts,
 * and every rule with its reproduction. Statuses are the console's: `passed`, `failed`, `inconclusive`,
 * `skipped`, `skipped (environment)`.
 */
import { RULE_STATUSES } from '../runner/run-rule.js';
import type { SuiteResult } from '../runner/run-suite.js';
import { toCurlScript } from './curl-commands.js';
import { exportLine } from './key-exports.js';
import { countVerdicts, operationEntries } from './operation-summary.js';
import { type ReplayContext, replayCommand, simulatorCommand } from './replay-command.js';

/** Version of the report's shape; bumped when a member changes meaning. */
export const JSON_REPORT_FORMAT = 'ofkit-check-report/2';

function rules(suite: SuiteResult, context: ReplayContext) {
  return suite.results.map((result) => {
    if (!result.failure) return result;
    const curl = toCurlScript(result.failure.exchanges);
    const replay = replayCommand(context, result.id);
    const replayShrunk = replayCommand(context, result.id, result.failure.path);
    const exports = exportLine([curl, replay, replayShrunk].join('\n'), context.keyValues);
    return {
      ...result,
      failure: { ...result.failure, replay, replayShrunk, curl, ...(exports ? { exports } : {}) },
    };
  });
}

export function renderJson(suite: SuiteResult, context: ReplayContext): string {
  const count = (status: string) => suite.results.filter((result) => result.status === status).length;
  const entries = operationEntries(suite.results);
  const report = {
    format: JSON_REPORT_FORMAT,
    baseUrl: suite.baseUrl,
    environment: suite.environment,
    strict: suite.strict,
    seed: suite.seed,
    runs: suite.runs,
    startedAt: suite.startedAt,
    durationMs: suite.durationMs,
    capabilities: suite.capabilities,
    // What the run did with the tenant, its scope, where its registrations came from.
    tenancy: suite.tenancy,
    scope: suite.scope,
    registrations: suite.registrations,
    notImplemented: suite.notImplemented,
    // The run stopped asking a target that stopped answering: the rules after it are `not run`.
    ...(suite.stopped ? { stopped: suite.stopped } : {}),
    ...(context.simulator ? { simulator: simulatorCommand(context.simulator) } : {}),
    summary: {
      rules: suite.results.length,
      ...Object.fromEntries(RULE_STATUSES.map((status) => [status, count(status)])),
    },
    // The SCHEMA rows that ran, as the operations' verdicts.
    operations: { ...countVerdicts(entries), entries },
    // Per operation: documented statuses exhibited with a valid body, and those never shown.
    coverage: suite.coverage,
    rules: rules(suite, context),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
