/**
 * CI cancels a job with SIGTERM to the process it started. `ofkit exec` must then end its command's
 * whole tree, not the command alone: here a shell whose own child, `sleep`, would outlive it.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { env, isRunning } from './harness.mjs';

const pause = (ms) => new Promise((done) => setTimeout(done, ms));

/** Resolves with the PIDs once the command has written them (the caller's guard bounds the wait). */
async function pidsWritten(path, exited) {
  for (let tries = 0; tries < 6000; tries += 1) {
    if (existsSync(path) && readFileSync(path, 'utf8').endsWith('\n'))
      return readFileSync(path, 'utf8').trim().split(' ').map(Number);
    if (exited.done) throw new Error(`ofkit exec ended before its command started:\n${exited.output}`);
    await pause(20);
  }
  throw new Error('the command never wrote its PIDs');
}

/** Throws unless SIGTERM gives exit code 143 and leaves neither the shell nor its sleep running. */
export async function sigtermEndsTheTree(project, ofkit) {
  const path = join(project, 'tree-pids');
  const script = `sleep 40 & echo "$$ $!" > ${path}; wait`;
  const exec = spawn(ofkit, ['exec', '--quiet', '--', 'sh', '-c', script], {
    cwd: project,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = { done: false, output: '' };
  exec.stdout.on('data', (chunk) => {
    exited.output += chunk;
  });
  exec.stderr.on('data', (chunk) => {
    exited.output += chunk;
  });
  const closed = new Promise((done) =>
    exec.once('exit', (code, signal) => {
      exited.done = true;
      done({ code, signal });
    }),
  );
  const [shell, sleep] = await pidsWritten(path, exited);
  if (!isRunning(shell) || !isRunning(sleep)) throw new Error('the command was not running');
  exec.kill('SIGTERM');
  const { code, signal } = await closed;
  const left = [shell, sleep].filter(isRunning);
  if (code !== 143 || left.length > 0) {
    for (const pid of left) process.kill(pid, 'SIGKILL');
    throw new Error(
      `exit ${code} (signal ${signal}); still running: ${left.join(' ') || 'none'}\n${exited.output}`,
    );
  }
}
