/**
 * Waiting for something with a bound: a shutdown's grace, a process tree's. The timer goes with the wait:
 * one left pending kept a process with nothing left to do alive until it fired. The job leases' stop and
 * the Redis Cluster's seed nodes wait the same way in their own code: clock/ and store/ sit below core/
 * and may not import it.
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
