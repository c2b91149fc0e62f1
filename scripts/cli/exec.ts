/**
 * `ofkit exec [simulate options] [exec options] -- <command> [args...]`: the simulator on a free port
 * around one command (like start-server-and-test), in this process, so that no simulator outlives it.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';
import { parseSimulatorConfig, SIMULATE_OPTIONS } from '../../simulator/src/config/simulator-config.js';
import { execEnvironment } from '../../simulator/src/connect-simulator.js';
import type { JudgeOutcome } from '../../simulator/src/judge/judge-cli.js';
import { type Command, runGuarded, UsageError } from './command-line.js';
import { endProcessTree } from './process-tree.js';
import { startFromConfig, stopFromConfig } from './simulate.js';

const EXEC_USAGE = `Usage: ofkit exec [options] -- <command> [args...]

Starts the simulator (default: a free port), runs <command> with its address and first key in the
environment, stops the simulator when the command ends and exits with the command's exit code.

  OFKIT_URL          the simulator's base URL, e.g. http://127.0.0.1:53127
  OFKIT_KEY          the first key's id        OFKIT_SECRET  its secret
  OFKIT_CONTROL_URL  the control API's base URL (<OFKIT_URL>/_ofkit/)
  OFKIT_SEED         its seed                  OFKIT_ENVIRONMENT  production or sandbox
                     (ofkit simulate --seed S --environment E brings the same simulator back)
Tests attach to it with connectSimulator() or startSimulator({ attach: true }) (ofkit/simulator).

Options: every option of ofkit simulate (--port defaults to 0 here):
${SIMULATE_OPTIONS}
  --quiet                  do not print the simulator's start-up lines
  --judge                  the client's CI gate: exit 1 when the command passed but the client judge
                           found a violated client rule, or judged nothing because no request reached
                           this simulator (docs/judge.md)`;

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

/** The exit code a shell reports for a signal: 128 + its number. */
function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (constants.signals[signal] ?? 0);
}

const ENDING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Runs the command to its end. When exec receives SIGINT, SIGTERM or SIGHUP it ends the command's
 * whole process tree (what a shell or `npm` started too) and resolves with 128 + that signal.
 * Off a terminal the command leads its own process group, so that the group ends with it. On a
 * terminal it stays in exec's group, the terminal's foreground group: a command that reads the
 * terminal (a test runner's watch mode) keeps reading it, and Ctrl-C reaches it as usual.
 */
function runChild(command: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const [file, ...args] = command as [string, ...string[]];
  const ownGroup = process.stdin.isTTY !== true;
  let ending: Promise<number> | undefined;
  let endTree = (_signal: NodeJS.Signals) => {};
  const onSignal = (signal: NodeJS.Signals) => {
    if (ending === undefined) endTree(signal);
  };
  // Listening before the command starts: a signal that comes as it starts is not lost (nor left to
  // Node's default, which would end exec and leave the command running).
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  const child = spawn(file, args, { stdio: 'inherit', env, detached: ownGroup });
  const exited = new Promise<number>((done) => {
    child.once('error', (error) => {
      console.error(
        `ofkit exec: cannot run ${file}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
      );
      done(127);
    });
    child.once('exit', (code, signal) => done(code ?? signalExitCode(signal ?? 'SIGTERM')));
  });
  endTree = (signal) => {
    if (child.pid === undefined) return;
    const rootExited = exited;
    ending = endProcessTree(child.pid, signal, { rootExited, ownGroup }).then(() => signalExitCode(signal));
  };
  return exited
    .then((code) => ending ?? code)
    .finally(() => {
      for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
    });
}

/**
 * `ofkit exec npm test`: the command given without `--` reaches the simulator's option parser as an
 * argument it does not take. Said in exec's words, with the command line to type instead.
 */
function commandWithoutSeparator(argv: readonly string[], error: unknown): UsageError | undefined {
  if ((error as { code?: string }).code !== 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL' || argv.includes('--'))
    return undefined;
  const word = /'([^']*)'/.exec((error as Error).message)?.[1];
  const at = word === undefined ? -1 : argv.indexOf(word);
  if (at === -1) return new UsageError('put the command after --: ofkit exec [options] -- <command>');
  const fixed = ['ofkit exec', ...argv.slice(0, at), '--', ...argv.slice(at)].join(' ');
  return new UsageError(`put the command after --: ${fixed}`);
}

function parseExecConfig(argv: readonly string[], simulateArgs: string[]) {
  try {
    return parseSimulatorConfig(simulateArgs);
  } catch (error) {
    throw commandWithoutSeparator(argv, error) ?? error;
  }
}

/**
 * The client's CI gate, once the command passed: 1 when its client broke a client rule, and 1 when no
 * request reached this simulator (a judge that saw nothing passes nothing), else 0. One line says why.
 */
function judgeGate(judged: JudgeOutcome): number {
  if (judged.reports.every((report) => report.requests + report.dropped === 0)) {
    console.error(
      'ofkit exec --judge: no request reached this simulator, so nothing was judged: point the client at $OFKIT_URL with $OFKIT_KEY:$OFKIT_SECRET (in tests: connectSimulator() or startSimulator({ attach: true }) from ofkit/simulator)',
    );
    return 1;
  }
  if (judged.exitCode === 0) return 0;
  console.error('ofkit exec: the command passed, but the client judge found violations (see above)');
  return judged.exitCode;
}

/** The command's run, in main.ts's command table. */
export const execCommand: Command['run'] = (argv) =>
  runGuarded(
    'exec',
    async () => {
      const { simulateArgs, execFlags, command } = splitExecArguments(argv);
      const config = parseExecConfig(argv, simulateArgs);
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
        code = await runChild(command, { ...process.env, ...execEnvironment(started) });
      } finally {
        const judged = await stopFromConfig(config, started, (line) => console.error(line));
        if (execFlags.has('--judge') && code === 0) code = judgeGate(judged);
      }
      return code;
    },
    { usage: EXEC_USAGE },
  );
