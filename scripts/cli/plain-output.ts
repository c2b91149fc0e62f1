/**
 * Colours only on a terminal, never with NO_COLOR (no-color.org). Pact's native verifier writes ANSI
 * colours to the process's own stdout whatever it is connected to and offers ofkit no switch, so a
 * command that runs it off a terminal runs again as a child whose output this process cleans.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** Set in the child's environment: its output is already being cleaned (no second child). */
const CLEANED_BY_PARENT = 'OFKIT_OUTPUT_CLEANED_BY_PARENT';

/** Whether a stream may carry colours: a terminal, and NO_COLOR absent or empty. */
export function coloursAllowed(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

/** True when this process should run the command again with its output cleaned. */
export function needsCleanedOutput(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env[CLEANED_BY_PARENT] === '1') return false;
  return !coloursAllowed(process.stdout, env) || !coloursAllowed(process.stderr, env);
}

const ESC = String.fromCharCode(0x1b);
const BEL = String.fromCharCode(0x07);
// CSI sequences (ESC [ ... final byte), OSC sequences (ESC ] ... BEL or ESC \\), then two-byte ones.
const ANSI = new RegExp(
  `${ESC}\\[[0-?]*[ -/]*[@-~]|${ESC}\\][^${BEL}${ESC}]*(?:${BEL}|${ESC}\\\\)|${ESC}[@-Z\\\\-_]`,
  'g',
);
// An escape sequence cut by the end of a chunk: kept for the next chunk.
const UNFINISHED = new RegExp(`${ESC}(?:\\[[0-?]*[ -/]*|\\][^${BEL}${ESC}]*)?$`);

/** A filter of a stream's chunks that drops ANSI escape sequences, even one split across chunks. */
export function createAnsiStripper(): { push(chunk: string): string; end(): string } {
  let held = '';
  return {
    push(chunk) {
      const text = held + chunk;
      const cut = UNFINISHED.exec(text);
      held = cut ? cut[0] : '';
      return (cut ? text.slice(0, cut.index) : text).replace(ANSI, '');
    },
    end() {
      const rest = held.replace(ANSI, '');
      held = '';
      return rest;
    },
  };
}

function pipeCleaned(from: NodeJS.ReadableStream, to: NodeJS.WritableStream): Promise<void> {
  const stripper = createAnsiStripper();
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => to.write(stripper.push(chunk)));
  return new Promise((done) => from.once('end', () => done(void to.write(stripper.end()))));
}

/**
 * Runs this same `ofkit` command line again in a child process (same Node, same entry script), its
 * stdout and stderr cleaned of colours on their way here; resolves with the child's exit code.
 */
export async function rerunWithCleanedOutput(): Promise<number> {
  const [node, script, ...args] = process.argv as [string, string, ...string[]];
  const child = spawn(node, [...process.execArgv, script, ...args], {
    stdio: ['inherit', 'pipe', 'pipe'],
    env: { ...process.env, [CLEANED_BY_PARENT]: '1' },
  });
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of signals) process.on(signal, forward);
  const piped = Promise.all([
    pipeCleaned(child.stdout, process.stdout),
    pipeCleaned(child.stderr, process.stderr),
  ]);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) =>
    child.once('close', (exitCode, exitSignal) => done([exitCode, exitSignal])),
  );
  await piped;
  for (const name of signals) process.off(name, forward);
  return code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
}
