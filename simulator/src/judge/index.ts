/**
 * The client judge: the simulator's log of each tenant's requests and webhook deliveries, judged against
 * the client rules (CLIENT-*). `judgeAll` and `judgeExitCode` are what a CLI gate needs
 * (`ofkit simulate --judge-report`, `ofkit exec --judge`).
 */
import type { Simulator } from '../simulator.js';
import type { Timing } from './client-rules.js';
import { type JudgeReport, judgeTenant } from './judge-tenant.js';
import { observationsOf } from './request-log.js';

export type { ClientRuleId, RuleVerdict, Timing, Verdict } from './client-rules.js';
export { CLIENT_RULES } from './client-rules.js';
export { createJudgeObserver, type JudgeObserver } from './judge-observer.js';
export type { JudgeReport } from './judge-tenant.js';
export { judgeTenant } from './judge-tenant.js';
export { consoleSummary, jsonReport, junitReport } from './report-formats.js';
export { MAX_DELIVERIES, MAX_REQUESTS, type RequestLogEntry } from './request-log.js';

/** The reports of every tenant that made a request or received a delivery, after deliveries settle. */
export async function judgeAll(
  simulator: Pick<Simulator, 'tenants' | 'webhooks'>,
  timing: Timing = 'real',
): Promise<JudgeReport[]> {
  await simulator.webhooks.idle();
  return simulator
    .tenants()
    .filter((tenant) => {
      const log = observationsOf(tenant);
      return log.requests.length > 0 || log.deliveries.length > 0;
    })
    .map((tenant) => judgeTenant(tenant, timing));
}

/**
 * The gate: the command's own exit code when it failed; otherwise 1 when any tenant's client violated a
 * rule (the command passed but the client misbehaved), else 0.
 */
export function judgeExitCode(reports: readonly JudgeReport[], commandExitCode = 0): number {
  if (commandExitCode !== 0) return commandExitCode;
  return reports.some((report) => report.verdicts.some((v) => v.verdict === 'violated')) ? 1 : 0;
}

/** `--judge-report junit:PATH|json:PATH`, parsed. */
export function parseJudgeReportTarget(text: string): { format: 'junit' | 'json'; path: string } {
  const colon = text.indexOf(':');
  const format = text.slice(0, colon);
  const path = text.slice(colon + 1);
  if (colon <= 0 || (format !== 'junit' && format !== 'json') || path === '') {
    throw new Error(`--judge-report wants junit:PATH or json:PATH, got "${text}"`);
  }
  return { format, path };
}
