/** The JSON report: the run (target, seed, capabilities, totals) and every rule with its reproduction. */
import type { SuiteResult } from '../runner/run-suite.js';
import { toCurlScript } from './curl-commands.js';
import { type ReplayContext, replayCommand } from './replay-command.js';

/** Version of the report's shape; bumped when a member changes meaning. */
export const JSON_REPORT_FORMAT = 'ofkit-check-report/1';

export function renderJson(suite: SuiteResult, context: ReplayContext): string {
  const count = (status: string) => suite.results.filter((result) => result.status === status).length;
  const report = {
    format: JSON_REPORT_FORMAT,
    baseUrl: suite.baseUrl,
    seed: suite.seed,
    runs: suite.runs,
    startedAt: suite.startedAt,
    durationMs: suite.durationMs,
    capabilities: suite.capabilities,
    summary: {
      rules: suite.results.length,
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      inconclusive: count('inconclusive'),
    },
    // Per operation: documented statuses exhibited with a valid body, and those never shown.
    coverage: suite.coverage,
    rules: suite.results.map((result) => ({
      ...result,
      ...(result.failure
        ? {
            failure: {
              ...result.failure,
              replay: replayCommand(context, result.id),
              replayShrunk: replayCommand(context, result.id, result.failure.path),
              curl: toCurlScript(result.failure.exchanges),
            },
          }
        : {}),
    })),
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}
