/**
 * The recording's worker thread gives way to the thread that forwards the traffic. On Linux a
 * scheduling policy belongs to a thread: SCHED_IDLE (set with util-linux's `chrt`, as Node has no call
 * for it) lets any other thread that wakes take the CPU at once, so checking a page never holds up an
 * answer that is waiting to go out; its share of a busy CPU is about that of nice 19, which is also set
 * (and is what is left where `chrt` is missing or not allowed). The checks catch up when the traffic
 * slows down, and the report says when they fell too far behind.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { isMainThread } from 'node:worker_threads';

export type ThreadPriority = 'SCHED_IDLE' | 'nice 19' | 'unchanged';

/** Lowers the calling thread's priority as far as the platform allows; what it got. */
export function yieldThisThread(): ThreadPriority {
  // The main thread forwards the traffic: only a worker thread gives way.
  if (process.platform !== 'linux' || isMainThread) return 'unchanged';
  let priority: ThreadPriority = 'unchanged';
  try {
    // pid 0: the calling thread, on Linux.
    setPriority(0, 19);
    priority = 'nice 19';
  } catch {
    // Not allowed here: the thread keeps the process's priority.
  }
  try {
    // "<pid>/task/<tid>": the id of this thread, which chrt takes as a pid.
    const thread = readlinkSync('/proc/thread-self').split('/').pop()!;
    // A /proc that names the process's first thread here would lower the forwarding thread instead.
    if (thread === String(process.pid)) return priority;
    execFileSync('chrt', ['--idle', '--pid', '0', thread], { stdio: 'ignore', timeout: 5_000 });
    priority = 'SCHED_IDLE';
  } catch {
    // No chrt, or the policy is not allowed (a restricted container): nice 19 stays.
  }
  return priority;
}
