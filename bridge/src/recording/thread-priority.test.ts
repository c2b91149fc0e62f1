import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startRecorder } from './recorder.js';

/** One field of each of this process's threads' stat lines, by thread id (fields count from 1). */
function threadFields(field: number): Map<string, number> {
  return new Map(
    readdirSync('/proc/self/task').map((thread) => {
      const stat = readFileSync(`/proc/self/task/${thread}/stat`, 'utf8');
      // The line's third field starts two characters after the command's closing parenthesis.
      return [thread, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[field - 3])];
    }),
  );
}

/** The scheduling policy of each thread (field 41) and its nice value (field 19). */
const threadPolicies = () => threadFields(41);
const threadNiceValues = () => threadFields(19);

/** The thread running this code (`<pid>/task/<tid>`). */
const thisThread = () => readlinkSync('/proc/thread-self').split('/').pop() as string;

const SCHED_BATCH = 3;

function hasChrt(): boolean {
  try {
    execFileSync('chrt', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Threads inherit their creator's policy: a test process started under SCHED_BATCH (`chrt --batch`, a
 * runner that marks its jobs so) has every thread there already, and nothing to tell the worker's
 * apart. Asked when the test runs, of the thread that runs it.
 */
const startedBatch = () => threadPolicies().get(thisThread()) === SCHED_BATCH;

describe('the recording worker gives way to the forwarding thread', () => {
  it.skipIf(process.platform !== 'linux' || !hasChrt())(
    'runs its thread under SCHED_BATCH, and no other thread of the process (skipped: needs Linux and chrt, and a process not started under SCHED_BATCH)',
    async (context) => {
      if (startedBatch())
        context.skip(
          'this thread runs under SCHED_BATCH already (started so, or set so earlier in this process): nothing to tell apart',
        );
      const before = threadPolicies();
      // Nothing answers there; the recorder does not need it to start.
      const recorder = await startRecorder({ upstream: 'http://127.0.0.1:9' });
      try {
        if (recorder.checksPriority !== 'SCHED_BATCH')
          context.skip(`the checks' thread could not take SCHED_BATCH here: ${recorder.checksPriority}`);
        const after = threadPolicies();
        const turnedBatch = [...after].filter(
          ([thread, policy]) => policy === SCHED_BATCH && before.get(thread) !== SCHED_BATCH,
        );
        // One thread turned batch, a new one (the recording's worker): no thread that was there before.
        expect(turnedBatch.map(([thread]) => before.has(thread))).toEqual([false]);
        // Never starved on a CPU other processes keep busy: the worker keeps this thread's nice value.
        const [worker] = turnedBatch.map(([thread]) => thread);
        expect(threadNiceValues().get(worker!)).toBe(threadNiceValues().get(thisThread()));
        expect(after.get(thisThread())).toBe(before.get(thisThread()));
      } finally {
        await recorder.close();
      }
    },
  );
});
