/** The contract every Store implementation must pass (one behaviour, whichever store runs it). */
import { describe, expect, it } from 'vitest';
import type { Store } from '../src/store/store.js';
import { runStoreDecisionContract, type StoreOptions } from './store-decision-contract.js';

/** How a contract asks for a store: a lease length when the test needs leases to expire soon. */
export type { StoreOptions } from './store-decision-contract.js';

export function runStoreContract(name: string, makeStore: (options?: StoreOptions) => Store): void {
  runStoreDecisionContract(name, makeStore);
  describe(`Store contract: ${name}`, () => {
    it('puts, gets, replaces and deletes by id, keeping insertion order', async () => {
      const store = makeStore();
      await store.put('t', 'links', { id: 'a', n: 1 });
      await store.put('t', 'links', { id: 'b', n: 2 });
      await store.put('t', 'links', { id: 'a', n: 3 });
      expect(await store.get('t', 'links', 'a')).toEqual({ id: 'a', n: 3 });
      expect((await store.list('t', 'links')).map((r) => r.id)).toEqual(['b', 'a']);
      expect(await store.delete('t', 'links', 'a')).toBe(true);
      expect(await store.delete('t', 'links', 'a')).toBe(false);
      expect(await store.get('t', 'links', 'a')).toBeUndefined();
    });

    it('lists and deletes by link, and keeps tenants apart', async () => {
      const store = makeStore();
      await store.put('t', 'accounts', { id: '1', link: 'L1' });
      await store.put('t', 'accounts', { id: '2', link: 'L2' });
      await store.put('t', 'accounts', { id: '3', link: 'L1' });
      await store.put('other', 'accounts', { id: '4', link: 'L1' });
      expect((await store.list('t', 'accounts', { link: 'L1' })).map((r) => r.id)).toEqual(['1', '3']);
      expect(await store.deleteByLink('t', 'accounts', 'L1')).toBe(2);
      expect((await store.list('t', 'accounts')).map((r) => r.id)).toEqual(['2']);
      expect((await store.list('other', 'accounts', { link: 'L1' })).map((r) => r.id)).toEqual(['4']);
    });

    it('gives a slice of a list and its length, with and without a link, past its end empty', async () => {
      const store = makeStore();
      const links: [string, string][] = [
        ['1', 'L1'],
        ['2', 'L2'],
        ['3', 'L1'],
        ['4', 'L1'],
        ['5', 'L1'],
      ];
      for (const [id, link] of links) await store.put('t', 'tx', { id, link });
      const ids = async (where: { link?: string }, start: number, count: number) => {
        const slice = await store.listSlice('t', 'tx', where, start, count);
        return { total: slice.total, ids: slice.records.map((r) => r.id) };
      };
      expect(await ids({ link: 'L1' }, 1, 2)).toEqual({ total: 4, ids: ['3', '4'] });
      expect(await ids({ link: 'L1' }, 3, 10)).toEqual({ total: 4, ids: ['5'] });
      expect(await ids({ link: 'L1' }, 4, 10)).toEqual({ total: 4, ids: [] });
      expect(await ids({ link: 'L1' }, 0, 0)).toEqual({ total: 4, ids: [] });
      expect(await ids({}, 0, 2)).toEqual({ total: 5, ids: ['1', '2'] });
      expect(await ids({ link: 'none' }, 0, 10)).toEqual({ total: 0, ids: [] });
      expect(await ids({}, 0, 10)).toEqual({ total: 5, ids: ['1', '2', '3', '4', '5'] });
      expect((await store.listSlice('empty-tenant', 'tx', {}, 0, 10)).total).toBe(0);
    });

    it('moving a record to another link re-indexes it', async () => {
      const store = makeStore();
      await store.put('t', 'x', { id: '1', link: 'L1' });
      await store.put('t', 'x', { id: '1', link: 'L2' });
      expect(await store.list('t', 'x', { link: 'L1' })).toEqual([]);
      expect((await store.list('t', 'x', { link: 'L2' })).map((r) => r.id)).toEqual(['1']);
    });

    it('counts a sliding window: the limit is refused until the oldest hit leaves', async () => {
      const store = makeStore();
      for (let i = 0; i < 5; i++)
        expect((await store.hitSlidingWindow('t', 'k', 1000 + i, 60_000, 5)).allowed).toBe(true);
      const refused = await store.hitSlidingWindow('t', 'k', 2000, 60_000, 5);
      expect(refused).toEqual({ allowed: false, count: 5, retryAfterMs: 59_000 });
      expect((await store.hitSlidingWindow('t', 'k', 61_000, 60_000, 5)).allowed).toBe(true);
      expect((await store.hitSlidingWindow('other', 'k', 2000, 60_000, 5)).allowed).toBe(true);
    });

    it('export then import gives the same snapshot; clear forgets the tenant', async () => {
      const store = makeStore();
      await store.put('t', 'links', { id: 'a', link: null, nested: { x: [1, 2] } });
      await store.put('t', 'accounts', { id: 'b', link: 'a' });
      await store.hitSlidingWindow('t', 'k', 5, 60_000, 5);
      const snapshot = await store.exportTenant('t');
      const copy = makeStore();
      await copy.importTenant('u', snapshot);
      expect(await copy.exportTenant('u')).toEqual(snapshot);
      expect((await copy.list('u', 'accounts', { link: 'a' })).map((r) => r.id)).toEqual(['b']);
      await store.clearTenant('t');
      expect(await store.list('t', 'links')).toEqual([]);
    });

    it('import replaces the whole tenant: records, collections and windows not in the snapshot go', async () => {
      const store = makeStore();
      await store.put('t', 'links', { id: 'old', link: null });
      await store.put('t', 'events', { id: 'e' });
      await store.hitSlidingWindow('t', 'k', 5, 60_000, 5);
      await store.importTenant('t', { collections: { links: [{ id: 'new', link: null }] }, windows: {} });
      expect(await store.exportTenant('t')).toEqual({
        collections: { links: [{ id: 'new', link: null }] },
        windows: {},
      });
    });

    it('takes a record once: of two takers at once, one gets it (LINK-MFA-428)', async () => {
      const store = makeStore();
      await store.put('t', 'sessions', { id: 's', link: 'L' });
      const [first, second] = await Promise.all([
        store.take('t', 'sessions', 's'),
        store.take('t', 'sessions', 's'),
      ]);
      expect([first, second].filter(Boolean)).toEqual([{ id: 's', link: 'L' }]);
      expect(await store.get('t', 'sessions', 's')).toBeUndefined();
      expect(await store.list('t', 'sessions', { link: 'L' })).toEqual([]);
    });

    it('consumes N uses exactly, keeping the order; null uses never run out (ERR-500-408)', async () => {
      const store = makeStore();
      await store.put('t', 'faults', { id: 'a', remaining: 3 });
      await store.put('t', 'faults', { id: 'b', remaining: null });
      const uses = await Promise.all(Array.from({ length: 5 }, () => store.consume('t', 'faults', 'a')));
      expect(uses.map((use) => use?.remaining ?? 'none').sort()).toEqual([1, 2, 3, 'none', 'none']);
      await store.put('t', 'faults', { id: 'c', remaining: 2 });
      expect((await store.consume('t', 'faults', 'c'))?.remaining).toBe(2);
      await store.put('t', 'faults', { id: 'd', remaining: 1 });
      expect((await store.list('t', 'faults')).map((r) => r.id)).toEqual(['b', 'c', 'd']);
      expect(await store.get('t', 'faults', 'c')).toEqual({ id: 'c', remaining: 1 });
      for (let i = 0; i < 3; i++)
        expect(await store.consume('t', 'faults', 'b')).toEqual({ id: 'b', remaining: null });
      expect(await store.consume('t', 'faults', 'missing')).toBeUndefined();
    });

    it('counts sequences per tenant and name from 1, never twice', async () => {
      const store = makeStore();
      const drawn = await Promise.all(Array.from({ length: 20 }, () => store.nextSequence('t', 'events')));
      expect(drawn.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
      expect(await store.nextSequence('t', 'jobs')).toBe(1);
      expect(await store.nextSequence('other', 'events')).toBe(1);
    });

    it('claims due jobs once, soonest first, ties in order; lists, counts and clears them', async () => {
      const store = makeStore();
      const job = (id: string, at: number, order: number) => ({ id, at, order, kind: 'k', args: { id } });
      await store.addJob('t', job('late', 300, 1));
      await store.addJob('t', job('tie-2', 100, 3));
      await store.addJob('t', job('tie-1', 100, 2));
      await store.addJob('t', { ...job('early', 50, 4), subject: 'e1' });
      await store.addJob('other', job('theirs', 10, 1));
      expect((await store.upcomingJobs('t', 3)).map((j) => j.id)).toEqual(['early', 'tie-1', 'tie-2']);
      expect(await store.countJobs('t')).toBe(4);
      expect(await store.claimDueJob('t', 49)).toBeUndefined();
      const claims = await Promise.all([store.claimDueJob('t', 100), store.claimDueJob('t', 100)]);
      expect(claims.map((j) => j?.id)).toEqual(['early', 'tie-1']);
      expect(claims[0]).toEqual({ ...job('early', 50, 4), subject: 'e1' });
      expect((await store.claimDueJob('t', 1000))?.id).toBe('tie-2');
      expect(await store.countJobs('t')).toBe(1);
      await store.clearJobs('t');
      expect(await store.claimDueJob('t', 1000)).toBeUndefined();
      expect((await store.upcomingJobs('other', 5)).map((j) => j.id)).toEqual(['theirs']);
      expect(await store.tenants()).toEqual(expect.arrayContaining(['other', 't']));
    });

    it('import keeps jobs and counters; clear forgets them', async () => {
      const store = makeStore();
      await store.addJob('t', { id: 'j', at: 1, order: 1, kind: 'k', args: {} });
      await store.nextSequence('t', 'events');
      await store.importTenant('t', { collections: {}, windows: {} });
      expect(await store.countJobs('t')).toBe(1);
      expect(await store.nextSequence('t', 'events')).toBe(2);
      await store.clearTenant('t');
      expect(await store.countJobs('t')).toBe(0);
      expect(await store.nextSequence('t', 'events')).toBe(1);
    });

    describeBoundedLogs(makeStore);
  });
}

const BIG = { entries: 100, size: 1_000_000 };
const texts = (page: { entries: { entry: string }[] }) => page.entries.map((e) => e.entry);

/** The bounded logs (the client judge's requests and deliveries): numbered, ordered, bounded, cleared. */
function describeBoundedLogs(makeStore: () => Store): void {
  describe('bounded logs', () => {
    it("numbers the appends of all a tenant's logs in one sequence, from 1; tenants apart", async () => {
      const store = makeStore();
      expect(await store.appendLog('t', 'requests', '{"a":1}', BIG)).toBe(1);
      expect(await store.appendLog('t', 'deliveries', '{"d":1}', BIG)).toBe(2);
      expect(await store.appendLog('t', 'requests', '{"a":2}', BIG)).toBe(3);
      expect(await store.appendLog('other', 'requests', '{"b":1}', BIG)).toBe(1);
      expect(await store.readLog('t', 'requests', 0, 10)).toEqual({
        entries: [
          { seq: 1, entry: '{"a":1}' },
          { seq: 3, entry: '{"a":2}' },
        ],
        dropped: 0,
      });
      expect(await store.readLog('t', 'deliveries', 0, 10)).toEqual({
        entries: [{ seq: 2, entry: '{"d":1}' }],
        dropped: 0,
      });
      expect(await store.readLog('t', 'unknown', 0, 10)).toEqual({ entries: [], dropped: 0 });
    });

    it('reads after a number, at most limit, oldest first', async () => {
      const store = makeStore();
      for (let i = 1; i <= 6; i++) await store.appendLog('t', i % 3 ? 'requests' : 'deliveries', `${i}`, BIG);
      const after = await store.readLog('t', 'requests', 2, 2);
      expect(after.entries).toEqual([
        { seq: 4, entry: '4' },
        { seq: 5, entry: '5' },
      ]);
      expect((await store.readLog('t', 'requests', 5, 10)).entries).toEqual([]);
      expect((await store.readLog('t', 'requests', 0, 0)).entries).toEqual([]);
    });

    it('keeps appends sent at once in the order they were sent, numbered without a gap', async () => {
      const store = makeStore();
      const sent = Array.from({ length: 60 }, (_, i) => store.appendLog('t', 'requests', `${i}`, BIG));
      expect(await Promise.all(sent)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      const page = await store.readLog('t', 'requests', 0, 100);
      expect(texts(page)).toEqual(Array.from({ length: 60 }, (_, i) => `${i}`).slice(-BIG.entries));
    });

    it('keeps the latest entries within the count bound and counts the dropped', async () => {
      const store = makeStore();
      const bounds = { entries: 3, size: 1_000 };
      for (let i = 1; i <= 5; i++) await store.appendLog('t', 'requests', `r${i}`, bounds);
      await store.appendLog('t', 'deliveries', 'd1', bounds);
      expect(await store.readLog('t', 'requests', 0, 10)).toEqual({
        entries: [
          { seq: 3, entry: 'r3' },
          { seq: 4, entry: 'r4' },
          { seq: 5, entry: 'r5' },
        ],
        dropped: 2,
      });
      expect((await store.readLog('t', 'deliveries', 0, 10)).dropped).toBe(0);
    });

    it('keeps the sizes of the entries within the size bound; an entry larger than it is dropped', async () => {
      const store = makeStore();
      const bounds = { entries: 100, size: 10 };
      for (const entry of ['aaaa', 'bbbb', 'cccc']) await store.appendLog('t', 'requests', entry, bounds);
      expect(texts(await store.readLog('t', 'requests', 0, 10))).toEqual(['bbbb', 'cccc']);
      await store.appendLog('t', 'requests', 'x'.repeat(11), bounds);
      expect(await store.readLog('t', 'requests', 0, 10)).toMatchObject({ dropped: 2 });
      expect(texts(await store.readLog('t', 'requests', 0, 10))).toEqual(['bbbb', 'cccc']);
      expect(await store.appendLog('t', 'requests', 'dddddddddd', bounds)).toBe(5);
      expect(await store.readLog('t', 'requests', 0, 10)).toEqual({
        entries: [{ seq: 5, entry: 'dddddddddd' }],
        dropped: 4,
      });
    });

    it('clearLogs forgets every log and numbers from 1 again; clearTenant and importTenant leave them', async () => {
      const store = makeStore();
      await store.appendLog('t', 'requests', 'r', BIG);
      await store.appendLog('t', 'deliveries', 'd', { entries: 1, size: 100 });
      await store.appendLog('t', 'deliveries', 'e', { entries: 1, size: 100 });
      await store.put('t', 'links', { id: 'a' });
      await store.clearTenant('t');
      await store.importTenant('t', { collections: {}, windows: {} });
      expect(texts(await store.readLog('t', 'requests', 0, 10))).toEqual(['r']);
      await store.appendLog('other', 'requests', 'o', BIG);
      await store.clearLogs('t');
      expect(await store.readLog('t', 'requests', 0, 10)).toEqual({ entries: [], dropped: 0 });
      expect(await store.readLog('t', 'deliveries', 0, 10)).toEqual({ entries: [], dropped: 0 });
      expect(await store.appendLog('t', 'deliveries', 'd2', BIG)).toBe(1);
      expect(texts(await store.readLog('other', 'requests', 0, 10))).toEqual(['o']);
    });
  });
}
