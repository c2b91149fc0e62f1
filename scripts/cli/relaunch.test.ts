import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDER_NODE_FLAGS } from '../../bridge/src/recording/recorder.js';
import { finished, startOfkit } from '../test-support/cli-process.js';
import { isRunning } from './process-tree.js';

const FIXTURE = resolve(import.meta.dirname, '../test-support/relaunch-fixture.ts');

function startFixture(nodeFlags: string[] = []): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...nodeFlags, '--import', 'tsx', FIXTURE]);
}

/** The first line a process prints that matches. */
function lineOf(child: ChildProcessWithoutNullStreams, pattern: RegExp): Promise<string> {
  return new Promise((found) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (!pattern.test(line)) return;
      lines.close();
      found(line);
    });
  });
}

/** What the relaunched fixture says of itself. */
async function relaunched(child: ChildProcessWithoutNullStreams): Promise<{ pid: number; flags: string[] }> {
  return JSON.parse(await lineOf(child, /^\{/));
}

/** The command lines of a process's children (Linux: /proc). */
function childCommandLines(pid: number): string[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean),
  );
  return children.map((child) => readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0').join(' '));
}

// Each case starts two Node processes: seconds on a loaded machine, not a timing check.
describe('a command relaunched with the Node flags it needs', { timeout: 60_000 }, () => {
  it('runs in a child that has the flags, where this process lacks them', async () => {
    const launcher = startFixture();
    const done = finished(launcher);
    const child = await relaunched(launcher);
    expect(child.flags).toContain('--single-threaded-gc');
    expect(child.pid).not.toBe(launcher.pid);
    launcher.kill('SIGTERM');
    await done;
  });

  it('runs in this process when it has the flags already', async () => {
    const launcher = startFixture(['--single-threaded-gc']);
    const done = finished(launcher);
    expect((await relaunched(launcher)).pid).toBe(launcher.pid);
    launcher.kill('SIGTERM');
    expect((await done).code).toBe(7);
  });

  it.each([
    ['SIGTERM', 7],
    ['SIGINT', 8],
  ] as const)('passes %s on once, and exits with the exit code of the child (%i)', async (signal, code) => {
    const launcher = startFixture();
    const done = finished(launcher);
    const child = await relaunched(launcher);
    launcher.kill(signal);
    const result = await done;
    expect({ code: result.code, signal: result.signal }, result.stderr).toEqual({ code, signal: null });
    expect(result.stdout).toContain(`stopped by ${signal}\n`);
    expect(isRunning(child.pid)).toBe(false);
  });

  it('stops the child (SIGTERM) when the launcher dies without passing anything on', async () => {
    const launcher = startFixture();
    const done = finished(launcher);
    const child = await relaunched(launcher);
    launcher.kill('SIGKILL');
    // The output pipe closes once the child, which shares it, has gone too.
    const result = await done;
    expect(result.signal).toBe('SIGKILL');
    expect(result.stdout).toContain('stopped by SIGTERM\n');
    expect(isRunning(child.pid)).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')(
  'ofkit proxy from the command line (skipped: reads /proc, Linux only)',
  () => {
    let upstream: Server;
    let upstreamUrl: string;
    beforeAll(async () => {
      upstream = createServer((_request, response) => response.writeHead(401).end('[]'));
      await new Promise<void>((ready) => upstream.listen(0, '127.0.0.1', ready));
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((closed) => upstream.close(() => closed())));

    it('serves from a process started with the recorder flags; Ctrl-C prints its report', {
      timeout: 60_000,
    }, async () => {
      const launcher = startOfkit(['proxy', upstreamUrl, '--port', '0']);
      const done = finished(launcher);
      await lineOf(launcher, /listening on http:\/\/127\.0\.0\.1:\d+/);
      // Under the development launcher (tsx) the launcher has another child: tsx's esbuild service.
      const serving = childCommandLines(launcher.pid!).filter((line) => line.includes(' proxy '));
      expect(serving).toHaveLength(1);
      for (const flag of RECORDER_NODE_FLAGS) expect(serving[0]).toContain(` ${flag} `);
      launcher.kill('SIGINT');
      const result = await done;
      // Nothing went through it: the report prints, with no verdict (exit 2).
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toMatch(/no verdict: no exchange of the API was checked/);
    });
  },
);
