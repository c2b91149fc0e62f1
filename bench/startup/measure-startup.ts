/**
 * The start-up stage: from process start to the first answer of `ofkit simulate` (the built bin,
 * dist/) and of `prism mock` on the same document, alternated in the same run, several times each;
 * and `startSimulator()` in process after its import. Prints medians and the ratio to Prism.
 * Alone: `npm run bench:startup` (builds dist/ first when it is missing).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { resolve } from 'node:path';
import { basicAuthorization } from '../../openapi/config/api-keys.js';
import { REPO_ROOT } from '../servers/child-process.js';

const OFKIT_BIN = resolve(REPO_ROOT, 'dist/scripts/cli/main.js');
const PRISM_BIN = resolve(REPO_ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
const DOCUMENT = resolve(REPO_ROOT, 'openapi/generated/openapi.json');
const AUTHORIZATION = basicAuthorization('ofkit-key-a', 'ofkit-secret-a');
const LISTENING = /(?:listening on|Prism is listening on) (http:\/\/[\d.]+:\d+)/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: Prism colours its log lines
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

export interface StartupReport {
  runs: number;
  /** Process start to the first answer of GET /api/, ms, one per run. */
  ofkitSimulateMs: number[];
  prismMockMs: number[];
  /** In process, after the import: startSimulator() resolved; and its first answer. */
  inProcess: { importMs: number; startSimulatorMs: number; firstAnswerMs: number }[];
  medians: { ofkitSimulateMs: number; prismMockMs: number; startSimulatorMs: number; importMs: number };
  /** ofkit simulate / prism mock (below 1: ofkit answers first). */
  ratioToPrism: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function firstAnswer(url: string): Promise<number> {
  return new Promise((done, fail) => {
    const req = request(`${url}/api/`, { headers: { authorization: AUTHORIZATION } }, (response) => {
      response.resume();
      response.on('end', () => done(response.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end();
  });
}

/** Spawns `args`, waits for its listening line, asks GET /api/; ms from spawn to the answer. */
async function timeToFirstAnswer(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    const url = await new Promise<string>((done, fail) => {
      let output = '';
      const read = (chunk: Buffer) => {
        output += chunk.toString().replace(ANSI_COLOUR, '');
        const match = LISTENING.exec(output);
        if (match) done(match[1]!);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => fail(new Error(`${args.join(' ')} exited ${code}: ${output}`)));
    });
    await firstAnswer(url);
    return performance.now() - started;
  } finally {
    child.kill('SIGTERM');
  }
}

function inProcessRun(): StartupReport['inProcess'][number] {
  const probe = resolve(REPO_ROOT, 'bench/startup/in-process-probe.mjs');
  const result = spawnSync(process.execPath, [probe], { cwd: REPO_ROOT, encoding: 'utf8' });
  const line = result.stdout.trim().split('\n').at(-1) ?? '';
  const { importMs, startSimulatorMs, firstAnswerMs } = JSON.parse(line);
  return { importMs, startSimulatorMs, firstAnswerMs };
}

/** Builds dist/ when it is missing (the stage measures what users run: compiled JavaScript). */
function ensureBuilt(): void {
  if (existsSync(OFKIT_BIN)) return;
  console.log('start-up: building dist/ first (npm run build)...');
  const built = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('npm run build failed');
}

export async function measureStartup(runs = 5): Promise<StartupReport> {
  ensureBuilt();
  const ofkit: number[] = [];
  const prism: number[] = [];
  const inProcess: StartupReport['inProcess'] = [];
  for (let run = 0; run < runs; run++) {
    // Alternated, so that a change of the machine's load falls on both.
    ofkit.push(await timeToFirstAnswer([OFKIT_BIN, 'simulate', '--port', '0']));
    prism.push(await timeToFirstAnswer([PRISM_BIN, 'mock', DOCUMENT, '-p', '0', '-h', '127.0.0.1']));
    inProcess.push(inProcessRun());
  }
  const medians = {
    ofkitSimulateMs: median(ofkit),
    prismMockMs: median(prism),
    startSimulatorMs: median(inProcess.map((r) => r.startSimulatorMs)),
    importMs: median(inProcess.map((r) => r.importMs)),
  };
  return {
    runs,
    ofkitSimulateMs: ofkit,
    prismMockMs: prism,
    inProcess,
    medians,
    ratioToPrism: medians.ofkitSimulateMs / medians.prismMockMs,
  };
}

export function formatStartup(report: StartupReport): string {
  const ms = (value: number) => `${Math.round(value)} ms`;
  const { medians } = report;
  return [
    `start-up (median of ${report.runs}, process start to the first answer of GET /api/):`,
    `  ofkit simulate (dist/): ${ms(medians.ofkitSimulateMs)}   [${report.ofkitSimulateMs.map(ms).join(', ')}]`,
    `  prism mock:             ${ms(medians.prismMockMs)}   [${report.prismMockMs.map(ms).join(', ')}]`,
    `  ratio ofkit / prism:    ${report.ratioToPrism.toFixed(2)}x (target: ofkit under 1 s)`,
    `  startSimulator() in process: ${ms(medians.startSimulatorMs)} after an import of ${ms(medians.importMs)} (target: under 300 ms)`,
  ].join('\n');
}

if (process.argv[1] === import.meta.filename) {
  const report = await measureStartup(Number(process.argv[2] ?? 5));
  console.log(formatStartup(report));
}
