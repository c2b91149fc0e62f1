/**
 * `ofkit exec [simulate options] [exec options] -- <command> [args...]`: the simulator on a free port
 * around one command (like start-server-and-test), in this process, so that no simulator outlives it.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { parseSimulatorConfig, SIMULATE_OPTIONS } from '../../simulator/src/config/simulator-config.js';
import { type Command, runGuarded, UsageError } from './command-line.js';
import { startFromConfig, stopFromConfig } from './simulate.js';

const EXEC_USAGE = `Usage: ofkit exec [options] -- <command> [args...]

Starts the simulator (default: a free port), runs <command> with its address and first key in the
environment, stops the simulator when the command ends and exits with the command's exit code.

  OFKIT_URL          the simulator's base URL, e.g. http://127.0.0.1:53127
  OFKIT_KEY          the first key's id        OFKIT_SECRET  its secret
  OFKIT_CONTROL_URL  the control API's base URL (<OFKIT_URL>/_ofkit/)

Options: every option of ofkit simulate (--port defaults to 0 here):
${SIMULATE_OPTIONS}
  --quiet                  do not print the simulator's start-up lines
  --judge                  the client's CI gate: exit 1 when the command passed but the client judge
                           found a violated client rule (README "Judge your client")`;

/** Exec's own flags (boolean ones), taken out before the rest goes to simulate's parser. */
const EXEC_FLAGS = new Set(['--quiet', '--judge']);

export interface ExecArguments {
  simulateArgs: string[];
  execFlags: Set<string>;
  command: string[];
}

/** Splits the command line at `--`: before it simulate's options and exec's, after it the command. */
export function splitExecArguments(argv: readonly string[]): ExecArguments {
  const end = argv.indexOf('--');
  const before = end === -1 ? [...argv] : argv.slice(0, end);
  const command = end === -1 ? [] : argv.slice(end + 1);
  const execFlags = new Set(before.filter((arg) => EXEC_FLAGS.has(arg)));
  return {
    simulateArgs: ['--port', '0', ...before.filter((arg) => !EXEC_FLAGS.has(arg))],
    execFlags,
    command,
  };
}

/** The command's exit code, or 128 + the signal's number when a signal ended it (as a shell reports). */
function exitCodeOf(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  return 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
}

function runChild(command: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { stdio: 'inherit', env });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onSigint = forward('SIGINT');
  const onSigterm = forward('SIGTERM');
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigterm);
  return new Promise((done) => {
    child.once('error', (error) => {
      console.error(
        `ofkit exec: cannot run ${file}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
      );
      done(127);
    });
    child.once('exit', (code, signal) => done(exitCodeOf(code, signal)));
  }).finally(() => {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigterm);
  }) as Promise<number>;
}

/** The command's run, in main.ts's command table. */
export const execCommand: Command['run'] = (argv) =>
  runGuarded('exec', async () => {
    const { simulateArgs, execFlags, command } = splitExecArguments(argv);
    const config = parseSimulatorConfig(simulateArgs);
    if (config.help) {
      console.log(EXEC_USAGE);
      return 0;
    }
    if (command.length === 0) throw new UsageError('give the command to run after --');
    if (execFlags.has('--judge') && !config.judgeEnabled)
      throw new UsageError('--judge gates on the client judge, which --no-judge turns off: drop one');
    // The simulator's lines go to stderr: the command's stdout stays its own.
    const quiet = execFlags.has('--quiet');
    const print = (line: string) => {
      if (!quiet) console.error(line);
    };
    const started = await startFromConfig(config, print);
    let code = 1;
    try {
      const [key] = started.keys;
      code = await runChild(command, {
        ...process.env,
        OFKIT_URL: started.url,
        OFKIT_KEY: key?.secretId ?? '',
        OFKIT_SECRET: key?.secretPassword ?? '',
        OFKIT_CONTROL_URL: started.control.url,
      });
    } finally {
      const judged = await stopFromConfig(config, started, (line) => console.error(line));
      // The client's CI gate: a command that passed still fails when its client broke a client rule.
      if (execFlags.has('--judge') && code === 0 && judged.exitCode !== 0) {
        console.error('ofkit exec: the command passed, but the client judge found violations (see above)');
        code = judged.exitCode;
      }
    }
    return code;
  });
