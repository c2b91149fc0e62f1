/**
 * `npm test`: the static checks, then every test lane (scripts/lanes/lanes.ts), several at once where the
 * machine has room, each lane's output printed whole when it ends (live when one runs alone), and a table
 * of each step's time at the end. `npm run test:<lane>` runs one lane; `--list` lists them.
 *
 *   tsx scripts/lanes/run-lanes.ts [STEP...] [--jobs N] [--list]
 *
 * Every step runs even when an earlier one failed, so that one run shows every failure; the exit code is
 * 1 when any step failed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { failureLines } from './failure-lines.js';
import { LANES, laneNamed } from './lanes.js';
import { planSteps, type Step } from './steps.js';

const repo = resolve(import.meta.dirname, '../..');

interface Finished {
  step: Step;
  code: number;
  seconds: number;
  /** The lines of a failed step's log that name what failed, repeated under the table at the end. */
  failures?: string[];
}

function parse(argv: readonly string[]): { names: string[]; jobs: number | undefined; list: boolean } {
  const names: string[] = [];
  let jobs: number | undefined;
  let list = false;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] as string;
    if (arg === '--list') list = true;
    else if (arg === '--jobs') jobs = Number(argv[++i]);
    else if (arg.startsWith('--jobs=')) jobs = Number(arg.slice('--jobs='.length));
    else if (arg.startsWith('-')) usage(`unknown option ${arg}`);
    else names.push(arg);
  }
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) usage('--jobs takes a whole number >= 1');
  return { names, jobs, list };
}

function usage(problem: string): never {
  console.error(`run-lanes: ${problem}`);
  console.error(
    `usage: run-lanes [${LANES.map((lane) => lane.name).join('|')}|static|fast ...] [--jobs N] [--list]`,
  );
  process.exit(2);
}

const seconds = (since: number) => (performance.now() - since) / 1000;
const clock = (s: number) => {
  const whole = Math.round(s);
  return `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, '0')}s`;
};

/** Runs one step; its output goes to the terminal (`live`) or to a log printed when it ends. */
function runStep(step: Step, live: boolean, logs: string): Promise<Finished> {
  const started = performance.now();
  const log = join(logs, `${step.name}.log`);
  return new Promise((done) => {
    let child: ChildProcess;
    const [command, ...args] = step.command;
    const env = { ...process.env, ...step.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (live ? '1' : '0') };
    if (live) {
      child = spawn(command as string, args, { cwd: repo, env, stdio: 'inherit' });
    } else {
      const out = createWriteStream(log);
      child = spawn(command as string, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout?.pipe(out, { end: false });
      child.stderr?.pipe(out, { end: false });
      child.on('close', () => out.end());
    }
    child.on('error', (error) => console.error(`${step.name}: ${error.message}`));
    child.on('close', (code, signal) => {
      const finished: Finished = { step, code: code ?? (signal ? 128 : 1), seconds: seconds(started) };
      if (!live) {
        const verdict = finished.code === 0 ? 'passed' : `FAILED (exit ${finished.code})`;
        process.stdout.write(`\n===== ${step.name}: ${verdict} in ${clock(finished.seconds)} =====\n`);
        setTimeout(() => {
          const text = readFileSync(log, 'utf8');
          process.stdout.write(text);
          if (finished.code !== 0) finished.failures = failureLines(text);
          done(finished);
        }, 50);
      } else done(finished);
    });
  });
}

/** Runs the steps, `jobs` at once in the order given; a step waits for the steps it comes `after`. */
async function runAll(steps: readonly Step[], jobs: number): Promise<Finished[]> {
  const logs = mkdtempSync(join(tmpdir(), 'ofkit-lanes-'));
  const finished: Finished[] = [];
  const running = new Map<string, { promise: Promise<Finished>; since: number }>();
  const pending = [...steps];
  const live = jobs === 1 || steps.length === 1;
  const ready = (step: Step) =>
    (step.after ?? []).every(
      (name) => finished.some((f) => f.step.name === name) || !steps.some((s) => s.name === name),
    );
  const progress = setInterval(() => {
    const now = [...running].map(([name, { since }]) => `${name} ${clock(seconds(since))}`);
    if (!live && now.length) process.stderr.write(`run-lanes: running ${now.join(', ')}\n`);
  }, 60_000);
  try {
    while (pending.length || running.size) {
      while (running.size < jobs) {
        const index = pending.findIndex(ready);
        if (index < 0) break;
        const [step] = pending.splice(index, 1) as [Step];
        if (!live) process.stderr.write(`run-lanes: ${step.name} started\n`);
        running.set(step.name, { promise: runStep(step, live, logs), since: performance.now() });
      }
      const done = await Promise.race([...running.values()].map(({ promise }) => promise));
      running.delete(done.step.name);
      finished.push(done);
    }
  } finally {
    clearInterval(progress);
    rmSync(logs, { recursive: true, force: true });
  }
  return finished;
}

function summary(finished: readonly Finished[], wall: number): void {
  const width = Math.max(...finished.map((f) => f.step.name.length));
  console.log('\nstep'.padEnd(width + 3), 'time     verdict');
  for (const { step, code, seconds: s } of finished)
    console.log(
      ` ${step.name.padEnd(width + 1)} ${clock(s).padStart(7)}  ${code === 0 ? 'passed' : `FAILED (exit ${code})`}`,
    );
  for (const { step, failures } of finished.filter((f) => f.code !== 0)) {
    console.log(`\n${step.name} failed (its whole log is printed above):`);
    for (const line of failures?.length ? failures : ['(no line names a failure; read the log above)'])
      console.log(`  ${line}`);
  }
  const failed = finished.filter((f) => f.code !== 0).map((f) => f.step.name);
  console.log(
    `\n${failed.length ? `FAILED: ${failed.join(', ')}` : 'every step passed'} in ${clock(wall)} (wall)`,
  );
}

const { names, jobs, list } = parse(process.argv.slice(2));
if (list) {
  for (const lane of LANES) console.log(`${lane.name.padEnd(12)} ${lane.holds}`);
  process.exit(0);
}
for (const name of names)
  if (!['static', 'fast'].includes(name) && !laneNamed(name)) usage(`no lane named ${name}`);
const steps = planSteps(names);
const started = performance.now();
const finished = await runAll(steps, jobs ?? Math.min(steps.length, 2));
if (steps.length > 1) summary(finished, seconds(started));
process.exit(finished.every((f) => f.code === 0) ? 0 : 1);
