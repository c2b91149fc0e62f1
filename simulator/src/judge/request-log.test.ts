/**
 * The request log's bounds (the latest 5000 requests and 1000 deliveries a tenant, under 14 MB) and its
 * reading (`GET /_ofkit/requests/`'s `after`, `limit`, `dropped`), on the memory store's ring.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { SimRequest } from '../core/http-types.js';
import { MemoryStore } from '../store/memory-store.js';
import { createJudgeLog, type JudgeLog } from './judge-log.js';
import { fromRow, type LoggedRequest, loggedRow } from './logged-request.js';
import { observeRequest } from './observe-request.js';
import { type LoggedDelivery, MAX_DELIVERIES, MAX_REQUESTS } from './request-log.js';

const newLog = (store = new MemoryStore()): JudgeLog =>
  createJudgeLog({
    store,
    onError: (error) => {
      throw error;
    },
  });

const request = (n: number): LoggedRequest => ({
  method: 'GET',
  origin: 'http://127.0.0.1:4010',
  path: `/api/links/${n}/`,
  query: '',
  operation: 'detailLink',
  sha256: null,
  status: 200,
  code: null,
  rule: null,
  detail: null,
  at: 0,
  realAt: 0,
  durationMs: 1,
});

const delivery = (data: Record<string, unknown> = {}): LoggedDelivery => ({
  at: '2026-11-02T12:00:00.000Z',
  kind: 'delivery',
  webhook_id: 'w',
  webhook_type: 'TRANSACTIONS',
  webhook_code: 'transactions_updated',
  link_id: 'l',
  data,
  attempt: 1,
  status: 200,
  error: null,
  duration_ms: 3,
});

describe('a logged request as the store keeps it', () => {
  it('comes back whole from its row, with and without its optional members', () => {
    const full: LoggedRequest = {
      ...request(1),
      headers: [['x-service-request-mode', 'async']],
      body: '{"password":"***"}',
      mfa: { session: 's', expiresAtMs: 600_000, link: 'l' },
      resume: { session: 's', link: null },
      page: { next: null, empty: true, count: 0 },
      secrets: ['query'],
    };
    for (const logged of [full, request(2), { ...request(3), secrets: ['path'] }]) {
      const row = JSON.parse(JSON.stringify(loggedRow(logged)));
      expect(fromRow(row)).toEqual(logged);
    }
    // Absent members at the end take no room.
    expect(loggedRow(request(2))).toHaveLength(13);
  });
});

describe('request log bound', () => {
  it('keeps the latest 5000 requests and 1000 deliveries, and counts the dropped requests', async () => {
    const log = newLog();
    for (let n = 1; n <= 12_000; n += 1) log.request('t', request(n));
    for (let n = 1; n <= MAX_DELIVERIES + 10; n += 1) log.delivery('t', delivery());
    const read = await log.observations('t');
    expect(read.requests).toHaveLength(MAX_REQUESTS);
    expect(read.dropped + read.requests.length).toBe(12_000);
    expect(read.requests.at(-1)!.entry).toMatchObject({ seq: 12_000, path: '/api/links/12000/' });
    expect(read.deliveries).toHaveLength(MAX_DELIVERIES);
    expect(read.deliveries.at(-1)!.seq).toBe(12_000 + MAX_DELIVERIES + 10);
  });

  it('reads after a seq, at most limit, and says where to go on from', async () => {
    const log = newLog();
    // Deliveries share the numbering: the requests are numbered 2, 3, 5, 8.
    for (const kind of ['d', 'r', 'r', 'd', 'r', 'd', 'd', 'r']) {
      if (kind === 'r') log.request('t', request(1));
      else log.delivery('t', delivery());
    }
    expect(await log.requests('t', 2, 2)).toMatchObject({
      requests: [{ seq: 3 }, { seq: 5 }],
      next_after: 5,
      dropped: 0,
    });
    expect(await log.requests('t', 8, 100)).toEqual({ requests: [], next_after: 8, dropped: 0 });
  });
});

/** The heap after a full collection (V8's gc, exposed for this test file only). */
const heapUsed = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  return () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
})();

const AUTHORIZATION = `Basic ${Buffer.from('ofkit-key-a:ofkit-secret-a').toString('base64')}`;

/** The largest request the adapter lets in: a request line of up to 16 KB and a body cut to 2000 characters. */
function largest(pathLength: number): LoggedRequest {
  const simRequest: SimRequest = {
    method: 'POST',
    path: `/api/links/${'p'.repeat(pathLength)}/`,
    query: new URLSearchParams({ q: 'q'.repeat(100) }),
    headers: { authorization: AUTHORIZATION, 'x-service-request-mode': 'async' },
    body: JSON.stringify({ institution: 'ofbank_br_retail', note: 'n'.repeat(5000) }),
    origin: 'http://127.0.0.1:4010',
  };
  const response = { status: 400, headers: {}, body: [{ code: 'invalid', message: 'm'.repeat(500) }] };
  return observeRequest(
    simRequest,
    response,
    { operationId: 'registerLink', rule: null },
    { atMs: 0, startedRealMs: 0, endedRealMs: 1 },
  );
}

describe('request log bound: under 14 MB a tenant', () => {
  it.each([
    ['requests with the longest bodies (about 4000 kept)', 60, 3500],
    ['requests with 16 KB request lines (about 600 kept)', 15_800, 500],
  ])('%s, and deliveries with large data', async (_, pathLength, kept) => {
    const store = new MemoryStore();
    const log = newLog(store);
    const entry = largest(pathLength);
    const ids = Array.from(
      { length: 400 },
      (_, i) => `a1b2c3d4-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const before = heapUsed();
    // Each request a string of its own, as the request path makes them.
    for (let n = 0; n < MAX_REQUESTS + 500; n += 1) log.request('t', { ...entry, at: n });
    for (let n = 0; n < MAX_DELIVERIES + 10; n += 1)
      log.delivery('t', delivery({ updated_transactions: ids, n }));
    await log.observations('u');
    const grown = heapUsed() - before;
    const read = await log.observations('t');
    expect(read.requests.length).toBeGreaterThan(kept);
    expect(read.deliveries.length).toBeGreaterThan(20);
    console.log(`${read.requests.length} requests, ${read.deliveries.length} deliveries: ${grown} bytes`);
    expect(grown).toBeLessThan(14_000_000);
  });
});
