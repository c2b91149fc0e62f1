/**
 * The go-live stage: `ofkit golive --judge-timing order-only` over every situation of the catalogue for
 * the careful example client (examples/golive/), from the command's start to its exit, through the
 * development launcher as a clone runs it; the time of each situation as the progress lines print it.
 * The target: the whole run in under a minute on the project's 2-core machine. Alone:
 * `npm run bench:golive`; prints the figures and exits 1 when the run was not Ready or missed the target.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../servers/child-process.js';

const LAUNCHER = resolve(REPO_ROOT, 'scripts/ofkit.js');
const CAREFUL = resolve(REPO_ROOT, 'examples/golive/careful-client.mjs');
export const GOLIVE_TARGET_MS = 60_000;

/**
 * CPU seconds of this process's waited children and theirs (Linux `/proc/self/stat` cutime + cstime, in
 * ticks of 1/100 s): what the run costs whatever else loads the machine.
 */
function childrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

export interface GoliveReport {
  totalMs: number;
  /** CPU seconds of golive, its simulators and the client's processes. */
  cpuSeconds: number;
  /** The machine's 1-minute load average when the run began (2 cores: above 2, others were running). */
  loadAtStart: number;
  exitCode: number | null;
  /** Seconds per situation, as its progress line said. */
  situations: Record<string, number>;
  summary: string;
}

/** Runs the careful example through every situation, order-only; resolves with the figures. */
export function measureGolive(): Promise<GoliveReport> {
  const started = performance.now();
  const cpuBefore = childrenCpuSeconds();
  const loadAtStart = Number(loadavg()[0]?.toFixed(2));
  const args = [LAUNCHER, 'golive', '--judge-timing', 'order-only', '--', process.execPath, CAREFUL];
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((done) =>
    child.once('close', (exitCode) => {
      const situations: Record<string, number> = {};
      for (const match of stderr.matchAll(/^\[\s*\d+\/\d+\] (\S+)\s+.*?([\d.]+) s\s/gm))
        situations[match[1] as string] = Number(match[2]);
      const summary = /\d+ Ready, .*$/m.exec(stdout)?.[0] ?? stderr.slice(-500);
      const totalMs = Math.round(performance.now() - started);
      const cpuSeconds = Number((childrenCpuSeconds() - cpuBefore).toFixed(1));
      done({ totalMs, cpuSeconds, loadAtStart, exitCode, situations, summary });
    }),
  );
}

export function formatGolive(report: GoliveReport): string {
  const rows = Object.entries(report.situations).map(([id, s]) => `  ${id.padEnd(26)} ${s.toFixed(1)} s`);
  const verdict = report.totalMs < GOLIVE_TARGET_MS ? 'met' : 'MISSED';
  return [
    'ofkit golive --judge-timing order-only, every situation, the careful example:',
    ...rows,
    `  total ${(report.totalMs / 1000).toFixed(1)} s (target < ${GOLIVE_TARGET_MS / 1000} s: ${verdict}), ${report.cpuSeconds} s of CPU, load average ${report.loadAtStart} at the start`,
    `  ${report.summary}`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await measureGolive();
  console.log(formatGolive(report));
  process.exitCode = report.exitCode === 0 && report.totalMs < GOLIVE_TARGET_MS ? 0 : 1;
}
