/**
 * What `ofkit simulate` (and `ofkit exec --judge`) do with the judge: switch the chosen situations on
 * for every tenant at start, and at shutdown judge every tenant, write the reports and say the verdict.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { arm, type ScenarioName } from '../core/armed-switches.js';
import type { TenantRuntime } from '../core/tenant.js';
import { readWebhookConfig } from '../webhooks/webhook-config.js';
import type { JudgeReport } from './client-rules.js';
import type { EvidenceSources } from './evidence-exports.js';
import { type JudgedSimulator, judgeAll, judgeExitCode } from './judge-all.js';
import type { JudgeConfig } from './judge-config.js';
import { consoleSummary, jsonReport, junitReport } from './report-formats.js';

/** `--fault` and `--scenario`: on every tenant (key) from the start; a reset clears them, as ever. */
export async function applyStartSwitches(
  simulator: { tenant(id: string): TenantRuntime },
  judge: JudgeConfig,
  tenantIds: readonly string[],
): Promise<void> {
  for (const id of tenantIds) {
    const tenant = simulator.tenant(id);
    for (const fault of judge.faults) {
      await arm(tenant, 'faults', { id: tenant.ids.uuid(), ...fault, remaining: fault.count });
    }
    for (const { scenario, count } of judge.scenarios) {
      await arm(tenant, 'scenarios', {
        id: tenant.ids.uuid(),
        scenario: scenario as ScenarioName,
        institution: null,
        link: null,
        remaining: count,
      });
    }
  }
}

export interface JudgeOutcome {
  reports: JudgeReport[];
  summary: string;
  /** 1 when a client violated a rule, else 0 (`judgeExitCode`). */
  exitCode: number;
  written: string[];
}

/** The sources of the evidence's `export` line: public secrets given by the caller, receivers read now. */
async function evidenceSources(
  simulator: JudgedSimulator,
  publicSecrets: ReadonlyMap<string, string>,
): Promise<EvidenceSources> {
  const receivers = new Map<string, string>();
  for (const tenant of simulator.tenants()) {
    const { url } = await readWebhookConfig(tenant);
    if (url !== null) receivers.set(tenant.id, url);
  }
  return { publicSecret: (id) => publicSecrets.get(id), webhookUrl: (id) => receivers.get(id) };
}

/**
 * Judges every tenant, writes `--judge-report` files, and gives the console summary. `publicSecrets`:
 * the secrets that may be printed (the documented default keys) by key id.
 */
export async function finishJudge(
  simulator: JudgedSimulator,
  judge: JudgeConfig,
  publicSecrets: ReadonlyMap<string, string> = new Map(),
): Promise<JudgeOutcome> {
  if (simulator.judge === null)
    return { reports: [], summary: 'client judge: off (--no-judge)', exitCode: 0, written: [] };
  const reports = await judgeAll(simulator, judge.timing);
  const written: string[] = [];
  for (const { kind, path } of judge.reports) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, kind === 'json' ? jsonReport(reports) : junitReport(reports, kind));
    written.push(`${kind}:${path}`);
  }
  const sources = await evidenceSources(simulator, publicSecrets);
  return { reports, summary: consoleSummary(reports, sources), exitCode: judgeExitCode(reports), written };
}
