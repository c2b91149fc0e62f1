/** The contract every Store implementation must pass (STYLE.md: undici's cacheStoreTests()). */
import { describe, expect, it } from 'vitest';
import type { Store } from '../store/store.js';

export function runStoreContract(name: string, makeStore: () => Store): void {
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
  });
}
