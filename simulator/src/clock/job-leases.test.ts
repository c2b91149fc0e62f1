/**
 * Jobs at least once, through their leases: a job stays scheduled while its replica runs it, is
 * finished after, handed back when the store failed under it or when its replica stops, and held while
 * the work it kept (a webhook attempt) goes on. Lease lengths are short here; asserts wait generously.
 */
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../store/memory-store.js';
import { StoreFailure } from '../store/store-failure.js';
import { JobLeases } from './job-leases.js';

const job = (id: string) => ({ id, at: 1, order: 1, kind: 'k', args: {} });
const pass = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function oneJob(jobLeaseMs = 60_000) {
  const store = new MemoryStore({ jobLeaseMs });
  await store.addJob('t', job('j'));
  return { store, mine: new JobLeases(store, 'A'), theirs: new JobLeases(store, 'B') };
}

describe('job leases', () => {
  it('a job being run stays scheduled, out of other replicas’ reach, and goes once finished', async () => {
    const { store, mine, theirs } = await oneJob();
    const leased = (await mine.lease('t', 10))!;
    await mine.run('t', leased, async () => {
      expect(await store.countJobs('t')).toBe(1);
      expect(await theirs.lease('t', 10)).toBeUndefined();
    });
    expect(await store.countJobs('t')).toBe(0);
  });

  it('a job that runs longer than its lease keeps it: renewed while it runs', async () => {
    // The store's time is driven by hand: the lease would lapse twice over without its renewals.
    const storeTime = { now: 0 };
    const store = new MemoryStore({ jobLeaseMs: 300, time: () => storeTime.now });
    await store.addJob('t', job('j'));
    const [mine, theirs] = [new JobLeases(store, 'A'), new JobLeases(store, 'B')];
    let renewals = 0;
    const renew = store.renewJob.bind(store);
    store.renewJob = (tenant, lease) => {
      renewals += 1;
      return renew(tenant, lease);
    };
    const taken: unknown[] = [];
    await mine.run('t', (await mine.lease('t', 10))!, async () => {
      for (let n = 1; n <= 2; n++) {
        storeTime.now += 250;
        // A renewal made from now on: the lease then lasts past the next 250 ms of store time.
        const before = renewals;
        while (renewals === before) await pass(20);
        storeTime.now += 250;
        taken.push(await theirs.lease('t', 10));
      }
    });
    expect(taken).toEqual([undefined, undefined]);
    expect(await store.countJobs('t')).toBe(0);
  });

  it('a job that met a store failure is handed back at once; one that failed by itself is dropped', async () => {
    const { store, mine, theirs } = await oneJob();
    const failing = new StoreFailure('unavailable', 'Redis at redis://x cannot be used');
    await expect(mine.run('t', (await mine.lease('t', 10))!, () => Promise.reject(failing))).rejects.toBe(
      failing,
    );
    const again = (await theirs.lease('t', 10))!;
    expect(again.job.id).toBe('j');
    const bug = new Error('a runner bug');
    await expect(theirs.run('t', again, () => Promise.reject(bug))).rejects.toBe(bug);
    expect(await store.countJobs('t')).toBe(0);
  });

  it('work a runner kept holds the lease until it settles; a kept store failure hands the job back', async () => {
    const { store, mine, theirs } = await oneJob();
    let settle!: (failure?: unknown) => void;
    const sending = new Promise<void>((resolve, reject) => {
      settle = (failure) => (failure ? reject(failure) : resolve());
    });
    await mine.run('t', (await mine.lease('t', 10))!, async (keep) => keep(sending));
    expect(mine.running).toBe(1);
    expect(await theirs.lease('t', 10)).toBeUndefined();
    settle(new StoreFailure('timeout', 'Redis at redis://x did not answer'));
    await pass(10);
    expect(mine.running).toBe(0);
    const handedBack = (await theirs.lease('t', 10))!;
    let kept!: () => void;
    await theirs.run('t', handedBack, async (keep) => keep(new Promise<void>((resolve) => (kept = resolve))));
    expect(await store.countJobs('t')).toBe(1);
    kept();
    await pass(10);
    expect(await store.countJobs('t')).toBe(0);
  });

  it('a replica stopping takes no new job, lets a running one finish within the grace, hands back the rest', async () => {
    const store = new MemoryStore();
    for (const id of ['quick', 'slow', 'later']) await store.addJob('t', job(id));
    const mine = new JobLeases(store, 'A');
    const quick = mine.run('t', (await mine.lease('t', 10))!, () => pass(20));
    const slow = mine.run('t', (await mine.lease('t', 10))!, () => pass(600));
    await mine.stop(200);
    expect(await mine.lease('t', 10)).toBeUndefined();
    await quick;
    // 'quick' finished; 'slow' was handed back while still running; 'later' was never taken.
    const theirs = new JobLeases(store, 'B');
    const ids = [(await theirs.lease('t', 10))?.job.id, (await theirs.lease('t', 10))?.job.id];
    expect(ids.sort()).toEqual(['later', 'slow']);
    await slow;
  });
});
