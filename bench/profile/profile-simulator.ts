/**
 * Profiles the simulator under the GET-100 load: a fresh simulator child records a V8 CPU profile from
 * ready to exit while autocannon loads it, then the profile is summarized by file, package and function.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type LoadResult, type LoadSettings, runLoad } from '../load/run-load.js';
import { buildScenarios, TARGET_SCENARIO } from '../load/scenarios.js';
import { startSimulator } from '../load/start-simulator-child.js';
import { formatTable } from '../report/format-report.js';
import { REPO_ROOT } from '../servers/child-process.js';
import {
  type CpuProfile,
  type ProfileSummary,
  summarizeProfile,
  type TimeShare,
} from './summarize-profile.js';

export interface ProfileReport {
  file: string;
  /** The load during the profile; the profiler costs some throughput, so these numbers are not the table's. */
  load: LoadResult;
  summary: ProfileSummary;
}

export async function profileSimulator(
  resultsDir: string,
  transactions: number,
  settings: LoadSettings,
): Promise<ProfileReport> {
  await mkdir(resultsDir, { recursive: true });
  const file = join(resultsDir, 'simulator.cpuprofile');
  const simulator = await startSimulator(transactions, ['--cpu-profile', file]);
  try {
    const scenario = buildScenarios(String(simulator.info.linkId)).find((s) => s.id === TARGET_SCENARIO)!;
    const load = await runLoad(simulator.url, scenario, settings);
    await simulator.stop();
    const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
    return { file, load, summary: summarizeProfile(profile, REPO_ROOT) };
  } finally {
    await simulator.stop();
  }
}

function shares(title: string, rows: readonly TimeShare[]): string {
  return formatTable(
    [title, 'ms', '%'],
    rows.map((row) => [row.name, row.ms.toFixed(0), (row.share * 100).toFixed(1)]),
  );
}

export function formatProfile(report: ProfileReport): string {
  const { summary } = report;
  return [
    `CPU profile of the simulator under ${TARGET_SCENARIO} (${report.load.requestsPerSecond.toFixed(0)} req/s while profiled, ${summary.sampledMs.toFixed(0)} ms sampled): ${report.file}`,
    shares('self time by group', summary.self),
    shares('inclusive time (on the stack)', summary.inclusive),
    shares('self time by function', summary.functions),
  ].join('\n\n');
}
