/**
 * The Redis store against a real redis-server (started on a free loopback port for this file): the
 * Store contract, then what only a shared store must show: two connections (two replicas) racing on
 * the atomic steps, an import seen whole or not at all, and a clear error when Redis is unreachable.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REDIS_SKIP_REASON,
  type RunningRedis,
  skipRedis,
  startRedisServer,
} from '../../test-support/redis-server.js';
import { redisStoreKit, runSharedStoreContracts } from '../../test-support/redis-store-kit.js';
import { RedisStore } from './redis-store.js';
import type { StoredRecord } from './store.js';

const title = skipRedis ? `RedisStore (skipped: ${REDIS_SKIP_REASON})` : 'RedisStore';
if (skipRedis) console.warn(REDIS_SKIP_REASON);

describe.skipIf(skipRedis)(title, () => {
  let redis: RunningRedis;
  const kit = redisStoreKit(() => redis.url);
  const { connected, freshPrefix } = kit;

  beforeAll(async () => {
    redis = await startRedisServer();
  }, 30_000);

  afterAll(async () => {
    await kit.close();
    await redis?.stop();
  });

  runSharedStoreContracts({ store: 'RedisStore', races: 'Redis' }, kit);

  async function keysUnder(prefix: string): Promise<string[]> {
    const client = createClient({ url: redis.url });
    await client.connect();
    try {
      return (await client.keys(`${prefix}*`)).sort();
    } finally {
      await client.close();
    }
  }

  async function twoReplicas(): Promise<[RedisStore, RedisStore]> {
    const prefix = freshPrefix('replicas');
    return [await connected(prefix), await connected(prefix)];
  }

  describe('two replicas on one Redis', () => {
    it('DELETE-RATE-LIMIT: 50 hits at once with a limit of 5 allow exactly 5', async () => {
      const [a, b] = await twoReplicas();
      const hits = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 ? a : b).hitSlidingWindow('t', 'link-L', 1000, 60_000, 5),
        ),
      );
      expect(hits.filter((hit) => hit.allowed)).toHaveLength(5);
      expect(
        hits
          .filter((hit) => hit.allowed)
          .map((hit) => hit.count)
          .sort(),
      ).toEqual([1, 2, 3, 4, 5]);
      expect(hits.find((hit) => !hit.allowed)).toEqual({ allowed: false, count: 5, retryAfterMs: 60_000 });
    });

    it('LINK-MFA-428: a session taken by both replicas at once goes to one', async () => {
      const [a, b] = await twoReplicas();
      await a.put('t', 'sessions', { id: 's', link: 'L', token: '123456' });
      const takes = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).take('t', 'sessions', 's')),
      );
      expect(takes.filter(Boolean)).toEqual([{ id: 's', link: 'L', token: '123456' }]);
      expect(await b.list('t', 'sessions', { link: 'L' })).toEqual([]);
    });

    it('ERR-500-408: a fault armed for 10 requests, consumed 30 times across replicas, fails 10', async () => {
      const [a, b] = await twoReplicas();
      await a.put('t', 'faults', { id: 'f', remaining: 10 });
      const uses = await Promise.all(
        Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).consume('t', 'faults', 'f')),
      );
      const counts = uses.flatMap((use) => (use ? [use.remaining as number] : []));
      expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 10 }, (_, i) => i + 1));
      expect(await b.get('t', 'faults', 'f')).toBeUndefined();
    });

    it('claims each due job once however many replicas claim', async () => {
      const [a, b] = await twoReplicas();
      for (let i = 0; i < 20; i++)
        await a.addJob('t', { id: `j${i}`, at: 100 + (i % 3), order: i, kind: 'k', args: {} });
      const claims = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).claimDueJob('t', 200)),
      );
      const ids = claims.flatMap((job) => (job ? [job.id] : []));
      expect(ids.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `j${i}`).sort());
      expect(await b.countJobs('t')).toBe(0);
    });
  });

  it('a page read in two steps answers as one read when another replica changes the list between them', async () => {
    const [writer, reader] = await twoReplicas();
    for (let i = 0; i < 6; i++) await writer.put('t', 'tx', { id: `r${i}`, link: 'L', n: i });
    // Between the reader's two steps (ids, then the records), the writer changes what the page shows.
    const between: (() => Promise<unknown>)[] = [
      () => writer.put('t', 'tx', { id: 'r2', link: 'L', n: 'changed' }),
      () => writer.delete('t', 'tx', 'r3'),
      () => writer.deleteByLink('t', 'tx', 'L'),
    ];
    const connection = (reader as unknown as { connection: { command(args: string[]): Promise<unknown> } })
      .connection;
    const command = connection.command.bind(connection);
    let change: (() => Promise<unknown>) | undefined;
    // The second step sends HMGET and GET (the write count) together; both wait for the change, as both
    // come after it on the wire. Holding back HMGET alone let GET reach Redis first on a loaded machine,
    // before the writer's change: a read this test made up, not one the store can meet.
    let changing: Promise<unknown> | undefined;
    connection.command = async (args) => {
      if (args[0] === 'HMGET' && change) {
        changing = change();
        change = undefined;
      }
      if (changing) await changing;
      return command(args);
    };
    for (const next of between) {
      changing = undefined;
      change = next;
      const page = await reader.listSlice('t', 'tx', { link: 'L' }, 1, 3);
      expect(change).toBeUndefined();
      // What one atomic read gives after the change (the change came before the page's answer).
      const whole = await reader.list('t', 'tx', { link: 'L' });
      expect(page).toEqual({ total: whole.length, records: whole.slice(1, 4) });
    }
  });

  it("a page read again at the same state comes from the records read before; any replica's change is seen by the next page", async () => {
    const [writer, reader] = await twoReplicas();
    for (let i = 0; i < 5; i++) await writer.put('t', 'tx', { id: `r${i}`, link: 'L', n: i });
    const connection = (reader as unknown as { connection: { command(args: string[]): Promise<unknown> } })
      .connection;
    const command = connection.command.bind(connection);
    let fetched = 0;
    connection.command = (args) => {
      if (args[0] === 'HMGET') fetched += 1;
      return command(args);
    };
    const page = () => reader.listSlice('t', 'tx', { link: 'L' }, 0, 3);
    const first = await page();
    expect(await page()).toEqual(first);
    // Another window at the same state: its records were read with the first page.
    expect((await reader.listSlice('t', 'tx', { link: 'L' }, 1, 2)).records).toEqual(first.records.slice(1));
    expect(await page()).toEqual(first);
    expect(fetched).toBe(1);
    // A change of a record of another collection, or of one outside the page, is a new state too.
    const changes: [() => Promise<unknown>, (records: StoredRecord[]) => void][] = [
      [() => writer.put('t', 'other', { id: 'x' }), (records) => expect(records).toEqual(first.records)],
      [
        () => writer.put('t', 'tx', { id: 'r1', link: 'L', n: 'moved' }),
        (records) => expect(records.map((record) => record.id)).toEqual(['r0', 'r2', 'r3']),
      ],
      [
        () =>
          writer.importTenant('t', { collections: { tx: [{ id: 'r0', link: 'L', n: 'new' }] }, windows: {} }),
        (records) => expect(records).toEqual([{ id: 'r0', link: 'L', n: 'new' }]),
      ],
    ];
    for (const [change, check] of changes) {
      await change();
      const before = fetched;
      check((await page()).records);
      expect(fetched).toBe(before + 1);
    }
  });

  it('a reader on another replica sees an import whole or not at all', async () => {
    const [writer, reader] = await twoReplicas();
    const state = (mark: string, n: number): StoredRecord[] =>
      Array.from({ length: n }, (_, i) => ({ id: `${mark}${i}`, link: `L${i % 50}`, mark }));
    await writer.importTenant('t', { collections: { accounts: state('old', 20_000) }, windows: {} });
    // Each read: how many records of link L7 and which states they come from (one state: 400 records).
    const reads: string[] = [];
    let importing = true;
    const reading = (async () => {
      while (importing) {
        const records = await reader.list('t', 'accounts', { link: 'L7' });
        reads.push(`${records.length} ${[...new Set(records.map((record) => record.mark))].join('+')}`);
      }
    })();
    await writer.importTenant('t', { collections: { accounts: state('new', 20_000) }, windows: {} });
    importing = false;
    await reading;
    expect(reads.filter((read) => read !== '400 old' && read !== '400 new')).toEqual([]);
    const seen = new Set(reads.map((read) => read.split(' ')[1]));
    expect(seen.has('old')).toBe(true);
    expect((await reader.list('t', 'accounts')).every((record) => record.mark === 'new')).toBe(true);
  });

  it('keeps a record exact through consume: 16 and 17 digits, empty arrays, nested "remaining", member order', async () => {
    const store = await connected();
    const record = {
      id: 'f',
      big: 2 ** 53 + 2,
      sum: 0.1 + 0.2,
      list: [],
      nested: { remaining: 9 },
      remaining: 3,
      last: 'x',
    };
    await store.put('t', 'faults', record);
    await store.consume('t', 'faults', 'f');
    const after = await store.get('t', 'faults', 'f');
    expect(JSON.stringify(after)).toBe(JSON.stringify({ ...record, remaining: 2 }));
  });

  it('exports collections and windows in the order they were made, and an import keeps it', async () => {
    const store = await connected();
    await store.put('t', 'zeta', { id: '1' });
    await store.put('t', 'alpha', { id: '2' });
    await store.put('t', 'zeta', { id: '3' });
    await store.hitSlidingWindow('t', 'w-late', 1, 1000, 5);
    await store.hitSlidingWindow('t', 'w-early', 2, 1000, 5);
    const snapshot = await store.exportTenant('t');
    expect(Object.keys(snapshot.collections)).toEqual(['zeta', 'alpha']);
    expect(Object.keys(snapshot.windows)).toEqual(['w-late', 'w-early']);
    await store.importTenant('u', snapshot);
    await store.put('u', 'beta', { id: '4' });
    const copy = await store.exportTenant('u');
    expect(JSON.stringify(copy)).toBe(
      JSON.stringify({ ...snapshot, collections: { ...snapshot.collections, beta: [{ id: '4' }] } }),
    );
  });

  it('keeps names with ":", "{" and "}" apart (tenants, collections, links)', async () => {
    const store = await connected();
    await store.put('a:b', 'c', { id: '1', link: 'x:y' });
    await store.put('a', 'b:c', { id: '2', link: 'x' });
    await store.put('{a}', 'c', { id: '3', link: 'x}y' });
    expect((await store.list('a:b', 'c', { link: 'x:y' })).map((r) => r.id)).toEqual(['1']);
    expect(await store.list('a:b', 'c', { link: 'x' })).toEqual([]);
    expect((await store.list('a', 'b:c')).map((r) => r.id)).toEqual(['2']);
    expect((await store.list('{a}', 'c', { link: 'x}y' })).map((r) => r.id)).toEqual(['3']);
  });

  it('leaves no keys behind a replaced import or a cleared tenant (only the generation counter)', async () => {
    const prefix = freshPrefix('gc');
    const store = await connected(prefix);
    await store.put('t', 'accounts', { id: '1', link: 'L' });
    await store.hitSlidingWindow('t', 'w', 1, 1000, 5);
    await store.importTenant('t', { collections: { links: [{ id: 'n', link: null }] }, windows: {} });
    await store.addJob('t', { id: 'j', at: 1, order: 1, kind: 'k', args: {} });
    await store.clearTenant('t');
    expect(await keysUnder(prefix)).toEqual([`${prefix}{t}:gens`]);
  });

  it('says which Redis it cannot reach and why', async () => {
    const closed = new RedisStore({ url: 'redis://127.0.0.1:1/0' });
    await expect(closed.connect()).rejects.toThrow(
      /^cannot connect to Redis at redis:\/\/127\.0\.0\.1:1\/0: connect ECONNREFUSED 127\.0\.0\.1:1$/,
    );
    expect(() => new RedisStore({ url: 'http://127.0.0.1:6379/' })).toThrow(/not a redis:\/\/ URL/);
    expect(() => new RedisStore({ url: 'redis://127.0.0.1:6379/db' })).toThrow(/database number/);
  });
});
