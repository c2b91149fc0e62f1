/**
 * The client's command, once per situation: run with `ofkit exec`'s variables for the situation's
 * simulator (and `OFKIT_SITUATION`, `OFKIT_JUDGE_TIMING`), in a process group of its own, its output kept
 * (the end of it, bounded) for the evidence rather than printed. On SIGINT, SIGTERM or SIGHUP golive ends
 * every command it runs, whole process trees, and the run stops.
 */
import { spawn } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { ClientOutcome, ClientRunner } from '../../golive/src/index.js';
import { SITUATION_VARIABLES } from '../../golive/src/index.js';
import type { Timing } from '../../simulator/src/judge/judge.js';
import { endProcessTree } from './process-tree.js';

/** The end of a command's output kept per situation. */
const KEPT_OUTPUT = 256 * 1024;
const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

type Stopper = (signal: NodeJS.Signals) => void;

/** Keeps the last `KEPT_OUTPUT` characters of what it is given. */
function outputTail(): { add(chunk: Buffer): void; text(): string } {
  let text = '';
  return {
    add(chunk) {
      text += chunk.toString('utf8');
      if (text.length > 2 * KEPT_OUTPUT) text = text.slice(-KEPT_OUTPUT);
    },
    text: () => text.slice(-KEPT_OUTPUT),
  };
}

/** Runs the command to its end; while it runs, `stoppers` holds what ends its process tree. */
function runOnce(command: readonly string[], env: NodeJS.ProcessEnv, stoppers: Set<Stopper>) {
  const [file, ...args] = command as [string, ...string[]];
  const output = outputTail();
  const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.on('data', output.add);
  child.stderr.on('data', output.add);
  const exited = new Promise<void>((gone) => child.once('exit', () => gone()));
  const stop: Stopper = (signal) => {
    if (child.pid !== undefined)
      void endProcessTree(child.pid, signal, { rootExited: exited, ownGroup: true });
  };
  stoppers.add(stop);
  return new Promise<ClientOutcome>((done) => {
    child.once('error', (error) => {
      stoppers.delete(stop);
      const why = (error as NodeJS.ErrnoException).code ?? error.message;
      done({ exitCode: 127, output: '', notRun: `cannot run ${file}: ${why}` });
    });
    // `close`: the command has exited and its output has ended.
    child.once('close', (code, signal) => {
      stoppers.delete(stop);
      done({ exitCode: code ?? (signal ? 128 : 1), output: output.text() });
    });
  });
}

/** The size of the client's log file now (0 when there is none yet). */
function logSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** What the client's log file gained since `from` bytes, its last `KEPT_OUTPUT` characters. */
function logSince(path: string, from: number): string {
  const length = Math.min(logSize(path) - from, 2 * KEPT_OUTPUT);
  if (length <= 0) return '';
  const start = logSize(path) - length;
  const buffer = Buffer.alloc(length);
  const file = openSync(path, 'r');
  try {
    readSync(file, buffer, 0, length, start);
  } finally {
    closeSync(file);
  }
  return buffer.toString('utf8').slice(-KEPT_OUTPUT);
}

export interface CommandClient {
  readonly client: ClientRunner;
  /** Stops listening for signals. */
  readonly dispose: () => void;
}

/**
 * The client runner of `command`, whose retry waits are judged with `timing`; `clientLog`, a file the
 * client logs to: what it gained during a situation is read with the command's output (one situation at
 * a time: with --concurrency, the lines of the runs at once are read by each).
 */
export function commandClient(command: readonly string[], timing: Timing, clientLog?: string): CommandClient {
  let interrupted: NodeJS.Signals | undefined;
  const stoppers = new Set<Stopper>();
  const onSignal = (signal: NodeJS.Signals) => {
    interrupted ??= signal;
    for (const stop of stoppers) stop(signal);
  };
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  return {
    client: async (simulator, situation) => {
      const env = {
        ...process.env,
        ...simulator.environment,
        [SITUATION_VARIABLES.situation]: situation.id,
        [SITUATION_VARIABLES.timing]: timing,
      };
      const logStart = clientLog === undefined ? 0 : logSize(clientLog);
      const outcome = interrupted ? undefined : await runOnce(command, env, stoppers);
      if (interrupted) return { exitCode: 130, output: '', notRun: `stopped by ${interrupted}` };
      const logged = clientLog === undefined ? '' : logSince(clientLog, logStart);
      return logged === '' ? outcome! : { ...outcome!, output: `${outcome!.output ?? ''}\n${logged}` };
    },
    dispose: () => {
      for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
    },
  };
}
