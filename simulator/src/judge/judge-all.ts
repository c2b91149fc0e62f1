/** Every tenant judged, and the exit code of the client's CI gate (`ofkit exec --judge`). */
import type { TenantRuntime } from '../core/tenant.js';
import type { Timing } from './client-rules.js';
import { type JudgeReport, judgeTenant } from './judge-tenant.js';
import { observationsOf } from './request-log.js';

/** The reports of every tenant that made a request or received a delivery, after deliveries settle. */
/** What the judge reads of a simulator: its tenants, and its deliveries in flight to wait for. */
export interface JudgedSimulator {
  tenants(): TenantRuntime[];
  webhooks: { idle(): Promise<void> };
}

export async function judgeAll(simulator: JudgedSimulator, timing: Timing = 'real'): Promise<JudgeReport[]> {
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
