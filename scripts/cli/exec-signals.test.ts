import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentOf, finished, LAUNCHER, startOfkit } from '../test-support/cli-process.js';
import { isRunning } from './process-tree.js';

const scratches: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(join(tmpdir(), 'ofkit-exec-'));
  scratches.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

describe('ofkit exec ends the whole process tree on a signal', () => {
  // Each case starts a Node process and a simulator: seconds on a loaded machine, not a timing check.
  it.concurrent.each([
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const)(
    '%s: no grandchild survives, exit code %i',
    async (signal, expected) => {
      const pids = join(scratch(), 'pids');
      // The README's form: a shell whose own child (here `sleep`) would outlive a signal to the shell alone.
      const script = `sleep 40 & echo "$$ $!" > ${pids}; wait`;
      const exec = startOfkit(['exec', '--quiet', '--', 'sh', '-c', script]);
      const done = finished(exec);
      const [shell, sleep] = (await contentOf(pids)).split(' ').map(Number) as [number, number];
      expect([isRunning(shell), isRunning(sleep)]).toEqual([true, true]);
      exec.kill(signal);
      const { code, signal: killedBy, stderr } = await done;
      expect({ code, killedBy }, stderr).toEqual({ code: expected, killedBy: null });
      expect([isRunning(shell), isRunning(sleep)]).toEqual([false, false]);
    },
    90_000,
  );
});

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).stdout?.includes('util-linux');

describe.skipIf(!hasScript)('ofkit exec on a terminal (a pseudo-terminal from util-linux script)', () => {
  it("leaves the terminal to the command: it is the terminal's foreground group and reads a key in raw mode", async () => {
    const probe = join(import.meta.dirname, '../test-support/terminal-probe.mjs');
    const command = `${process.execPath} ${LAUNCHER} exec --quiet -- ${process.execPath} ${probe}`;
    const terminal = spawn('script', ['-qec', command, '/dev/null']);
    const done = finished(terminal);
    let seen = '';
    terminal.stdout.on('data', (chunk) => {
      const before = seen;
      seen += chunk;
      if (seen.includes('ready') && !before.includes('ready')) terminal.stdin.write('q');
    });
    const { code, stdout } = await done;
    expect(stdout).toContain('foreground=yes tty=true');
    expect(stdout).toContain('key=q');
    expect(code).toBe(0);
  }, 90_000);

  it('ends the tree there too (the command shares its process group): SIGTERM, exit code 143', async () => {
    const pids = join(scratch(), 'pids');
    const script = `sleep 40 & echo "$PPID $$ $!" > ${pids}; wait`;
    const command = `${process.execPath} ${LAUNCHER} exec --quiet -- sh -c '${script}'`;
    const done = finished(spawn('script', ['-qec', command, '/dev/null']));
    const [exec, shell, sleep] = (await contentOf(pids)).split(' ').map(Number) as [number, number, number];
    process.kill(exec, 'SIGTERM');
    expect((await done).code).toBe(143);
    expect([isRunning(exec), isRunning(shell), isRunning(sleep)]).toEqual([false, false, false]);
  }, 90_000);
});
