/**
 * Runs a command again in a child Node process that has the V8 flags it needs, when this one lacks
 * them: V8 reads some flags (`--single-threaded-gc`) only as a process starts, and a user starts
 * `ofkit` without them. The child is the command; this process only waits for it and passes on what
 * reaches it.
 *
 * Signals: the child runs in its own process group, so a signal reaches it once, from here. Ctrl-C at
 * a terminal signals this process's group (not the child's), `kill <pid>` this process: each is passed
 * on as it came, and the child stops as it would have alone (`ofkit record` prints its report). If this
 * process dies without passing anything on (SIGKILL), the child's IPC channel closes and the child
 * sends itself SIGTERM. The exit code is the child's (128 + the signal's number when a signal ended it).
 * The child's stdin is not passed on: the commands that relaunch read none.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** Set in the child's environment: it was relaunched, and its launcher waits for it. */
const RELAUNCHED = 'OFKIT_RELAUNCHED';
const PASSED_ON = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Undefined when this process has every flag (run the command here); otherwise the exit code of the
 * command run in a child that has them. Where the child cannot be started, undefined too: the flags
 * are for speed, and the command runs here without them.
 */
export async function relaunchWith(nodeFlags: readonly string[]): Promise<number | undefined> {
  const missing = nodeFlags.filter((flag) => !process.execArgv.includes(flag));
  if (missing.length === 0) {
    if (process.env[RELAUNCHED] === '1') followLauncher();
    return undefined;
  }
  const child = spawn(process.execPath, [...process.execArgv, ...missing, ...process.argv.slice(1)], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    detached: process.platform !== 'win32',
    env: { ...process.env, [RELAUNCHED]: '1' },
  });
  const started = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!started) return undefined;
  const passOn = (signal: NodeJS.Signals) => child.kill(signal);
  for (const signal of PASSED_ON) process.on(signal, passOn);
  try {
    return await new Promise<number>((resolve) =>
      child.once('exit', (code, signal) =>
        resolve(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)),
      ),
    );
  } finally {
    for (const signal of PASSED_ON) process.off(signal, passOn);
  }
}

/** In the child: the launcher's channel never keeps it alive, and its closing stops the command. */
function followLauncher(): void {
  delete process.env[RELAUNCHED];
  if (!process.channel) return;
  process.channel.unref();
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
}
