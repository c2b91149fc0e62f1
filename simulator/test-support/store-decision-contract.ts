/**
 * The Store contract's steps that replicas race on: compare-and-set puts, removals with their cascade,
 * window and mark, and job leases (one behaviour, whichever store runs it).
 */
import { describe, expect, it } from 'vitest';
import type { JobRecord, Store } from '../src/store/store.js';

const job = (id: string, at: number, order: number): JobRecord => ({
  id,
  at,
  order,
  kind: 'k',
  args: { id },
});

/** Waits `ms` of real time: leases expire on the store's own time (liveness), never the virtual clock. */
const pass = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a contract asks of the store it makes (a short job lease, to see leases expire). */
export interface StoreOptions {
  jobLeaseMs?: number;
}

export function runStoreDecisionContract(name: string, makeStore: (options?: StoreOptions) => Store): void {
  describe(`Store contract: ${name}: the steps replicas race on`, () => {
    it('putIf puts only when the stored member equals the expected value (missing counts as null)', async () => {
      const store = makeStore();
      expect(await store.putIf('t', 'c', { id: 'a', v: 1 }, { field: 'id', equals: null })).toEqual({
        put: true,
        before: undefined,
      });
      const refused = await store.putIf('t', 'c', { id: 'a', v: 9 }, { field: 'id', equals: null });
      expect(refused).toEqual({ put: false, before: { id: 'a', v: 1 } });
      expect(await store.putIf('t', 'c', { id: 'a', v: 2 }, { field: 'v', equals: 1 })).toMatchObject({
        put: true,
      });
      expect(await store.putIf('t', 'c', { id: 'a', v: 3 }, { field: 'v', equals: '2' })).toMatchObject({
        put: false,
      });
      expect(await store.putIf('t', 'c', { id: 'a', v: 3 }, { field: 'w', equals: null })).toMatchObject({
        put: true,
      });
      expect(
        await store.putIf('t', 'c', { id: 'b', s: true, link: 'L' }, { field: 's', equals: null }),
      ).toMatchObject({ put: true });
      expect(await store.get('t', 'c', 'a')).toEqual({ id: 'a', v: 3 });
      expect((await store.list('t', 'c', { link: 'L' })).map((r) => r.id)).toEqual(['b']);
    });

    it('putIf from many callers at once on one state: exactly one wins', async () => {
      const store = makeStore();
      await store.put('t', 'c', { id: 'x', version: 1 });
      const tries = await Promise.all(
        Array.from({ length: 10 }, (_, n) =>
          store.putIf('t', 'c', { id: 'x', version: 2, by: n }, { field: 'version', equals: 1 }),
        ),
      );
      expect(tries.filter((t) => t.put)).toHaveLength(1);
      expect((await store.get('t', 'c', 'x'))?.version).toBe(2);
    });

    it('removeRecord takes the record, its linked records and a window slot in one step, or nothing', async () => {
      const store = makeStore();
      await store.put('t', 'links', { id: 'L', link: null });
      await store.put('t', 'links', { id: 'M', link: null });
      await store.put('t', 'accounts', { id: 'a1', link: 'L' });
      await store.put('t', 'accounts', { id: 'a2', link: 'M' });
      await store.put('t', 'sessions', { id: 's1', link: 'L' });
      const window = { key: 'delete:links', now: 1000, windowMs: 60_000, limit: 1 };
      const mark = { collection: '_marks', record: { id: 'job-1', event: 'e1' } };
      const removal = { collection: 'links', cascade: ['accounts', 'sessions'], window, mark };
      const removed = await store.removeRecord('t', { ...removal, id: 'L' });
      expect(removed).toEqual({ outcome: 'removed', record: { id: 'L', link: null } });
      expect((await store.list('t', 'accounts')).map((r) => r.id)).toEqual(['a2']);
      expect(await store.list('t', 'sessions', { link: 'L' })).toEqual([]);
      expect(await store.get('t', '_marks', 'job-1')).toEqual({ id: 'job-1', event: 'e1' });
      // A missing record takes no slot; a full window refuses and removes nothing.
      expect(await store.removeRecord('t', { ...removal, id: 'L' })).toEqual({ outcome: 'missing' });
      const refused = await store.removeRecord('t', {
        ...removal,
        id: 'M',
        window: { ...window, now: 2000 },
      });
      expect(refused).toEqual({
        outcome: 'refused',
        hit: { allowed: false, count: 1, retryAfterMs: 59_000 },
      });
      expect(await store.get('t', 'links', 'M')).toEqual({ id: 'M', link: null });
      expect(await store.removeRecord('t', { collection: 'links', id: 'M' })).toMatchObject({
        outcome: 'removed',
      });
      expect(await store.removeRecord('u', { collection: 'links', id: 'M' })).toEqual({ outcome: 'missing' });
    });

    it('leases a due job to one holder until it finishes; a lost lease cannot finish it', async () => {
      const store = makeStore();
      await store.addJob('t', job('late', 300, 2));
      await store.addJob('t', { ...job('early', 100, 1), subject: 's' });
      expect(await store.leaseDueJob('t', 99, 'A')).toBeUndefined();
      const a = await store.leaseDueJob('t', 500, 'A');
      expect(a?.job).toEqual({ ...job('early', 100, 1), subject: 's' });
      expect(a?.lease).toMatchObject({ id: 'early', owner: 'A' });
      // Leased, the job is still scheduled (counted, listed) but no other holder gets it.
      expect(await store.countJobs('t')).toBe(2);
      expect((await store.upcomingJobs('t', 5)).map((j) => j.id)).toEqual(['early', 'late']);
      const b = await store.leaseDueJob('t', 500, 'B');
      expect(b?.job.id).toBe('late');
      expect(await store.leaseDueJob('t', 500, 'C')).toBeUndefined();
      expect(await store.renewJob('t', a!.lease)).toBe(true);
      expect(await store.releaseJob('t', b!.lease)).toBe(true);
      expect(await store.finishJob('t', b!.lease)).toBe(false);
      const again = await store.leaseDueJob('t', 500, 'C');
      expect(again?.job.id).toBe('late');
      expect(again!.lease.token).toBeGreaterThan(b!.lease.token);
      expect(await store.finishJob('t', a!.lease)).toBe(true);
      expect(await store.finishJob('t', a!.lease)).toBe(false);
      expect((await store.upcomingJobs('t', 5)).map((j) => j.id)).toEqual(['late']);
      // Replaced by a job of the same id: the old lease is void, the new job is due for anyone.
      await store.addJob('t', job('late', 400, 3));
      expect(await store.finishJob('t', again!.lease)).toBe(false);
      expect((await store.leaseDueJob('t', 500, 'D'))?.job).toEqual(job('late', 400, 3));
      expect(await store.cancelJob('t', 'late')).toBe(true);
      expect(await store.cancelJob('t', 'late')).toBe(false);
      expect(await store.countJobs('t')).toBe(0);
    });

    it('an expired lease hands the job on with a newer token; the old holder can neither renew nor finish', async () => {
      const store = makeStore({ jobLeaseMs: 150 });
      await store.addJob('t', job('j', 1, 1));
      const first = await store.leaseDueJob('t', 10, 'A');
      expect(await store.leaseDueJob('t', 10, 'B')).toBeUndefined();
      // Generous: the store's time is real time; 150 ms of lease, waited until it is surely over.
      let second: Awaited<ReturnType<Store['leaseDueJob']>>;
      for (let waited = 0; !second && waited < 5_000; waited += 50) {
        await pass(50);
        second = await store.leaseDueJob('t', 10, 'B');
      }
      expect(second?.job.id).toBe('j');
      expect(second!.lease.token).toBeGreaterThan(first!.lease.token);
      expect(await store.renewJob('t', first!.lease)).toBe(false);
      expect(await store.finishJob('t', first!.lease)).toBe(false);
      expect(await store.finishJob('t', second!.lease)).toBe(true);
    });

    it('jobs leased from many callers at once: each job to one holder', async () => {
      const store = makeStore();
      for (let i = 0; i < 20; i++) await store.addJob('t', job(`j${i}`, 100 + (i % 3), i));
      const leases = await Promise.all(
        Array.from({ length: 40 }, (_, n) => store.leaseDueJob('t', 200, `owner-${n % 2}`)),
      );
      const ids = leases.flatMap((leased) => (leased ? [leased.job.id] : []));
      expect(ids.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `j${i}`).sort());
      const finished = await Promise.all(
        leases.map((leased) => leased && store.finishJob('t', leased.lease)),
      );
      expect(finished.filter((done) => done === true)).toHaveLength(20);
      expect(await store.countJobs('t')).toBe(0);
    });

    it('clearJobs forgets leases with the jobs: a lease held before cannot finish a job added after', async () => {
      const store = makeStore();
      await store.addJob('t', job('j', 1, 1));
      const held = await store.leaseDueJob('t', 10, 'A');
      await store.clearJobs('t');
      await store.addJob('t', job('j', 1, 2));
      expect(await store.finishJob('t', held!.lease)).toBe(false);
      expect((await store.leaseDueJob('t', 10, 'B'))?.job.order).toBe(2);
    });
  });
}
