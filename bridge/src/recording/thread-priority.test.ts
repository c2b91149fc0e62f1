import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startRecorder } from './recorder.js';

/** The scheduling policy of each of this process's threads, by thread id (field 41 of its stat line). */
function threadPolicies(): Map<string, number> {
  return new Map(
    readdirSync('/proc/self/task').map((thread) => {
      const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
      return [thread, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[38])];
    }),
  );
}

/** The thread running this code (`<pid>/task/<tid>`). */
const thisThread = () => readlinkSync('/proc/thread-self').split('/').pop() as string;

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
 * Asked when the test runs, of the thread that runs it.
 */
const startedIdle = () => threadPolicies().get(thisThread()) === SCHED_IDLE;

describe('the recording worker gives way to the forwarding thread', () => {
  it.skipIf(process.platform !== 'linux' || !hasChrt())(
    'runs its thread under SCHED_IDLE, and no other thread of the process (skipped: needs Linux and chrt, and a process not started under SCHED_IDLE)',
    async (context) => {
      if (startedIdle())
        context.skip(
          'this thread runs under SCHED_IDLE already (started so, or set so earlier in this process): nothing to tell apart',
        );
      const before = threadPolicies();
      // Nothing answers there; the recorder does not need it to start.
      const recorder = await startRecorder({ upstream: 'http://127.0.0.1:9' });
      try {
        if (recorder.checksPriority !== 'SCHED_IDLE')
          context.skip(`the checks' thread could not take SCHED_IDLE here: ${recorder.checksPriority}`);
        const after = threadPolicies();
        const turnedIdle = [...after].filter(
          ([thread, policy]) => policy === SCHED_IDLE && before.get(thread) !== SCHED_IDLE,
        );
        // One thread turned idle, a new one (the recording's worker): no thread that was there before.
        expect(turnedIdle.map(([thread]) => before.has(thread))).toEqual([false]);
        expect(after.get(thisThread())).toBe(before.get(thisThread()));
      } finally {
        await recorder.close();
      }
    },
  );
});
