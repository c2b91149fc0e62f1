/**
 * The `ofkit` command line run as a user runs it: a child process of the lane's compiled command line
 * (compiled-cli-lane.ts), or of the development launcher where no lane compiled one.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The development launcher: TypeScript through tsx, no build. */
export const DEVELOPMENT_LAUNCHER = resolve(import.meta.dirname, '../ofkit.js');
/** What `node LAUNCHER <command>` runs `ofkit <command>` with. */
export const LAUNCHER = resolve(process.env.OFKIT_TEST_LAUNCHER ?? DEVELOPMENT_LAUNCHER);

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects a child's output and resolves once it has exited. */
export function finished(child: ChildProcessWithoutNullStreams): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((done) => child.once('close', (code, signal) => done({ code, signal, stdout, stderr })));
}

/** `ofkit ...args` through the launcher, with `env` added to this process's environment. */
export function startOfkit(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [LAUNCHER, ...args], { env: { ...process.env, ...env } });
}

export function runOfkit(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  return finished(startOfkit(args, env));
}

/** Resolves with a file's trimmed content once a process has written it (the test's timeout bounds the wait). */
export async function contentOf(path: string): Promise<string> {
  for (;;) {
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      if (text.endsWith('\n')) return text.trim();
    }
    await new Promise((done) => setTimeout(done, 20));
  }
}
