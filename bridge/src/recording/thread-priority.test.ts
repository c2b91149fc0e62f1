import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startRecorder } from './recorder.js';

/** The scheduling policy of each of this process's threads (field 41 of its stat line; 5 is SCHED_IDLE). */
function threadPolicies(): number[] {
  return readdirSync('/proc/self/task').map((thread) => {
    const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38]);
  });
}

const SCHED_IDLE = 5;

function hasChrt(): boolean {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Threads inherit their creator's policy: a test process started under SCHED_IDLE (`chrt --idle`, a
 * runner that lowers its jobs) has every thread there already, and nothing to tell the worker's apart.
 */
const startedIdle = () => process.platform === 'linux' && threadPolicies()[0] === SCHED_IDLE;

describe('the recording worker gives way to the forwarding thread', () => {
  it.skipIf(process.platform !== 'linux' || !hasChrt() || startedIdle())(
    'runs its thread under SCHED_IDLE, and no other thread of the process (skipped: needs Linux and chrt, and a process not started under SCHED_IDLE)',
    async () => {
      const before = threadPolicies().filter((policy) => policy === SCHED_IDLE).length;
      // Nothing answers there; the recorder does not need it to start.
      const recorder = await startRecorder({ upstream: 'http://127.0.0.1:9' });
      try {
        const policies = threadPolicies();
        expect(policies.filter((policy) => policy === SCHED_IDLE).length).toBe(before + 1);
        // The test's own thread (the first task is the process's main thread) keeps its policy.
        expect(policies[0]).not.toBe(SCHED_IDLE);
      } finally {
        await recorder.close();
      }
    },
  );
});
