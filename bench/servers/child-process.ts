/**
 * Starts bench servers as child processes (so the load generator never shares their event loop),
 * waits for the line that gives their URL, and stops them by PID: at the end, on error and on SIGINT.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseReadyLine, REPORT_PREFIX, type ReadyInfo } from './child-protocol.js';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');

export interface ChildSpec {
  name: string;
  command: string;
  args: readonly string[];
  /** The child's URL (and more) from one line of its stdout, or undefined for any other line. */
  ready?: (line: string) => ReadyInfo | undefined;
  timeoutMs?: number;
  /** Keep the `BENCH_...` lines written after ready (otherwise stdout is drained unread). */
  collectReports?: boolean;
  /** Ready once this URL answers at all (a peer that prints nothing we can read); `ready` is then unused. */
  pollUrl?: string;
}

export interface ChildServer {
  name: string;
  pid: number;
  url: string;
  info: ReadyInfo;
  /** Milliseconds from spawn to the ready line. */
  readyMs: number;
  /** `BENCH_...` lines written after ready, when the spec asked to collect them. */
  reports: string[];
  stop(): Promise<void>;
}

const running = new Set<ChildServer>();
const TAIL_LINES = 30;

/** Arguments that run a TypeScript entry of the repository with tsx in ONE process (its PID is the server's). */
export function tsxArgs(entry: string, nodeFlags: readonly string[] = []): string[] {
  return [...nodeFlags, '--import', 'tsx', resolve(REPO_ROOT, entry)];
}

function keepTail(stream: NodeJS.ReadableStream, tail: string[]): void {
  createInterface({ input: stream }).on('line', (line) => {
    tail.push(line);
    if (tail.length > TAIL_LINES) tail.shift();
  });
}

/** Signals our own child by its PID; it may have exited since we looked (ESRCH), which is fine. */
function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (child.exitCode !== null || child.signalCode !== null || pid === undefined) return;
  const exited = once(child, 'exit');
  child.stdin?.end();
  signal(pid, 'SIGTERM');
  const timer = setTimeout(() => signal(pid, 'SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

function collectReports(child: ChildProcess, reports: string[]): void {
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.startsWith(REPORT_PREFIX)) reports.push(line);
  });
}

function waitForReady(
  child: ChildProcess,
  spec: ChildSpec,
  tail: string[],
  reports: string[],
): Promise<ReadyInfo> {
  const ready = spec.ready ?? parseReadyLine;
  const timeoutMs = spec.timeoutMs ?? 60_000;
  return new Promise((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout! });
    let settled = false;
    const settle = () => {
      settled = true;
      clearTimeout(timer);
      lines.close();
      child.off('exit', onExit);
      child.off('error', onError);
    };
    const fail = (reason: string) => {
      settle();
      reject(new Error(`${spec.name}: ${reason}\n--- last output ---\n${tail.join('\n')}`));
    };
    const onExit = (code: number | null, signal: string | null) =>
      fail(`exited before it was ready (code ${code}, signal ${signal})`);
    const onError = (error: Error) => fail(error.message);
    const timer = setTimeout(() => fail(`not ready after ${timeoutMs} ms`), timeoutMs);
    const succeed = (info: ReadyInfo) => {
      if (settled) return;
      settle();
      if (spec.collectReports) collectReports(child, reports);
      // Keep draining: Prism and Mockoon log every request, and a full pipe would stall them.
      else child.stdout?.resume();
      resolvePromise(info);
    };
    child.once('exit', onExit);
    child.once('error', onError);
    lines.on('line', (line) => {
      tail.push(line);
      if (tail.length > TAIL_LINES) tail.shift();
      const info = spec.pollUrl === undefined ? ready(line) : undefined;
      if (info !== undefined) succeed(info);
    });
    if (spec.pollUrl !== undefined)
      pollUntilAnswered(spec.pollUrl, () => settled).then(succeed, () => undefined);
  });
}

/** Resolves with the URL's origin once it answers anything; rejects once `givenUp()` says the wait is over. */
async function pollUntilAnswered(url: string, givenUp: () => boolean): Promise<ReadyInfo> {
  while (!givenUp()) {
    try {
      const answer = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await answer.arrayBuffer();
      return { url: new URL(url).origin };
    } catch {
      await new Promise((resolveWait) => setTimeout(resolveWait, 200));
    }
  }
  throw new Error('given up');
}

/** Spawns the child from the repository root and resolves once it has reported its URL. */
export async function startChild(spec: ChildSpec): Promise<ChildServer> {
  const started = performance.now();
  const child = spawn(spec.command, spec.args, { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const tail: string[] = [];
  keepTail(child.stderr!, tail);
  const server: ChildServer = {
    name: spec.name,
    pid: child.pid ?? -1,
    url: '',
    info: { url: '' },
    readyMs: 0,
    reports: [],
    stop: async () => {
      running.delete(server);
      await stopProcess(child);
    },
  };
  running.add(server);
  try {
    server.info = await waitForReady(child, spec, tail, server.reports);
  } catch (error) {
    await server.stop();
    throw error;
  }
  server.url = server.info.url;
  server.readyMs = performance.now() - started;
  return server;
}

/** Stops every child still running (end of run, error, SIGINT). */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop()));
}
