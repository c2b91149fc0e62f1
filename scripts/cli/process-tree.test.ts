/**
 * endProcessTree on a real process tree: `sh` with a `sleep` below it, ended by one signal. It resolves
 * once the root has exited, not after its grace, and leaves no timer that would keep the process alive
 * (ending every process of a tree: exec-signals.test.ts).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { endProcessTree } from './process-tree.js';

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('endProcessTree', () => {
  it('resolves once the signalled root has exited, not after its grace, and leaves no timer behind', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    const rootExited = new Promise<void>((gone) => child.once('exit', () => gone()));
    await new Promise((started) => child.once('spawn', started));
    const before = timers();
    // A grace longer than the test's time-out: only the tree's end can let the call resolve in time.
    await endProcessTree(child.pid as number, 'SIGTERM', { rootExited, ownGroup: true, graceMs: 600_000 });
    expect(child.exitCode ?? child.signalCode).toBe('SIGTERM');
    expect(timers()).toBe(before);
  });
});
