/**
 * Waiting for something with a bound: a shutdown's grace, a process tree's, a job's, a seed node's. The
 * timer goes with the wait: one left pending kept a process with nothing left to do alive until it fired.
 */

/** Resolves once `settled` settles or `ms` have passed, whichever comes first, and clears its timer. */
export async function settledWithin(settled: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([settled, new Promise((done) => (timer = setTimeout(done, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
