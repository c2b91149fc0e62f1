/**
 * endProcessTree on a real process tree: `sh` with a `sleep` below it, ended by one signal. It resolves
 * once the root has exited, not after its grace, and leaves no timer that would keep the process alive
 * (ending every process of a tree: exec-signals.test.ts).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { pendingTimersOf } from '../../simulator/test-support/pending-timers.js';
import { endProcessTree } from './process-tree.js';

describe('endProcessTree', () => {
  it('resolves once the signalled root has exited, not after its grace, and leaves no timer behind', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { detached: true, stdio: 'ignore' });
    const rootExited = new Promise<void>((gone) => child.once('exit', () => gone()));
    await new Promise((started) => child.once('spawn', started));
    // A grace longer than the test's time-out: only the tree's end can let the call resolve in time.
    const graceMs = 612_345;
    const left = await pendingTimersOf(graceMs, () =>
      endProcessTree(child.pid as number, 'SIGTERM', { rootExited, ownGroup: true, graceMs }),
    );
    expect(child.exitCode ?? child.signalCode).toBe('SIGTERM');
    expect(left).toBe(0);
  });
});
