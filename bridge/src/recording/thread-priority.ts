/**
 * The recording's worker thread gives way to the thread that forwards the traffic, without ever being
 * starved. On Linux a scheduling policy belongs to a thread: SCHED_BATCH (set with util-linux's `chrt`,
 * as Node has no call for it) marks it as the CPU-bound one, so a forwarding thread that wakes with an
 * answer to send is not held back behind it, while the checks keep their fair share of a busy CPU.
 * SCHED_IDLE or nice 19 would give way further but, on a machine that other processes keep busy (a CI
 * runner with several jobs), leave the checks with almost no CPU: a recorder's start-up and its report
 * at shutdown then waited minutes. An unprivileged thread cannot raise its priority back, so it is
 * never lowered.
 */
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';

export type ThreadPriority = 'SCHED_BATCH' | 'unchanged';

/** Marks the calling worker thread as the batch one where the platform allows; what it got. */
export function yieldThisThread(): ThreadPriority {
  // The main thread forwards the traffic: only a worker thread gives way.
  if (process.platform !== 'linux' || isMainThread) return 'unchanged';
  try {
    // "<pid>/task/<tid>": the id of this thread, which chrt takes as a pid.
    const thread = readlinkSync('/proc/thread-self').split('/').pop()!;
    // A /proc that names the process's first thread here would mark the forwarding thread instead.
    if (thread === String(process.pid)) return 'unchanged';
    execFileSync('chrt', ['--batch', '--pid', '0', thread], { stdio: 'ignore', timeout: 5_000 });
    return 'SCHED_BATCH';
  } catch {
    // No chrt, or the policy is not allowed (a restricted container): the thread keeps its policy.
    return 'unchanged';
  }
}
