/** Every tenant judged, and the exit code of the client's CI gate (`ofkit exec --judge`). */
import type { TenantRuntime } from '../core/tenant.js';
import type { JudgeReport, Timing } from './client-rules.js';
import { judge } from './judge.js';
import type { JudgeLog } from './judge-log.js';

/** What the judge reads of a simulator: its tenants, its log, and its deliveries in flight to wait for. */
export interface JudgedSimulator {
  tenants(): TenantRuntime[];
  webhooks: { idle(): Promise<void> };
  /** null when the simulator runs without the judge (`--no-judge`). */
  judge: JudgeLog | null;
}

/** The reports of every tenant that made a request or received a delivery, after deliveries settle. */
export async function judgeAll(simulator: JudgedSimulator, timing: Timing = 'real'): Promise<JudgeReport[]> {
  const log = simulator.judge;
  if (log === null) return [];
  await simulator.webhooks.idle();
  const reports: JudgeReport[] = [];
  for (const tenant of simulator.tenants()) {
    const observed = await log.observations(tenant.id);
    if (observed.requests.length > 0 || observed.deliveries.length > 0)
      reports.push(judge(tenant.id, observed, timing));
  }
  return reports;
}

/**
 * The gate: the command's own exit code when it failed; otherwise 1 when any tenant's client violated a
 * rule (the command passed but the client misbehaved), else 0.
 */
export function judgeExitCode(reports: readonly JudgeReport[], commandExitCode = 0): number {
  if (commandExitCode !== 0) return commandExitCode;
  return reports.some((report) => report.verdicts.some((v) => v.verdict === 'violated')) ? 1 : 0;
}
