/**
 * a far clock move does not stall other tenants, a refused import changes nothing, and a
 * tenant's export larger than the API's body limit imports back. Through the node:http adapter, where
 * a loop that never yields would starve other sockets. Fairness is counted in requests another tenant
 * completes while the move runs (event-loop turns), never in wall-clock time.
 */
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bulkLoad } from '../../bench/memory/bulk-load.js';
import { BENCH_KEY } from '../../bench/servers/seed-data.js';
import { SNAPSHOT_IMPORT_ROUTE, SNAPSHOT_MAX_BYTES } from '../../simulator/src/control/snapshot-limits.js';
import { closeGracefully } from '../../simulator/src/server/graceful-shutdown.js';
import { createHttpServer, listen } from '../../simulator/src/server/http-adapter.js';
import { createSimulator, type Simulator } from '../../simulator/src/simulator.js';
import {
  createContractCheck,
  FIXED_NOW,
  TEST_KEYS,
} from '../../simulator/test-support/contract-checked-simulator.js';
import { exportText, isErrorArray } from './tenant-calls.js';

const KEYS = [...TEST_KEYS, BENCH_KEY];
const BENCH = `${BENCH_KEY.secretId}:${BENCH_KEY.secretPassword}`;
const basic = (credentials: string) => `Basic ${Buffer.from(credentials).toString('base64')}`;
const A = 'tenant-a:secret-a';
const B = 'tenant-b:secret-b';
/** A small snapshot limit on the adapter, to see its 413 without sending a GiB. */
const SMALL_LIMIT = 64 * 1024;

let simulator: Simulator;
let server: Server;
let small: Server;
let base: string;
let smallBase: string;

beforeAll(async () => {
  simulator = await createSimulator({
    seed: 'hardening',
    environment: 'production',
    keys: KEYS,
    realTime: () => FIXED_NOW,
  });
  const check = createContractCheck(simulator.document);
  const handle = async (request: Parameters<Simulator['handle']>[0]) => {
    const response = await simulator.handle(request);
    check(request.method, request.path, response);
    return response;
  };
  server = createHttpServer({
    handle,
    maxBodyBytes: 1_048_576,
    streamedBodies: new Map([[SNAPSHOT_IMPORT_ROUTE, SNAPSHOT_MAX_BYTES]]),
  });
  small = createHttpServer({
    handle,
    maxBodyBytes: 1024,
    streamedBodies: new Map([['PUT /_ofkit/snapshot/', SMALL_LIMIT]]),
  });
  base = await listen(server, 0, '127.0.0.1');
  smallBase = await listen(small, 0, '127.0.0.1');
}, 120_000);
afterAll(() =>
  Promise.all([closeGracefully(server, { graceMs: 500 }), closeGracefully(small, { graceMs: 500 })]),
);

async function call(as: string, method: string, path: string, body?: string, at = base) {
  const headers: Record<string, string> = { authorization: basic(as) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${at}${path}`, { method, headers, body });
  return { status: response.status, text: await response.text() };
}

describe('a far clock move keeps other tenants answering', () => {
  it('a year of daily refreshes of recurrent links: tenant-b completes requests all along', async () => {
    await call(A, 'PUT', '/_ofkit/webhooks/', JSON.stringify({ url: null, mode: 'record' }));
    const link = {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      password: 'p',
      access_mode: 'recurrent',
    };
    for (let i = 0; i < 3; i++)
      expect((await call(A, 'POST', '/api/links/', JSON.stringify(link))).status).toBe(201);
    // README "Limits": a set as far as the 9999 is refused outright.
    const far = await call(A, 'PUT', '/_ofkit/clock/', JSON.stringify({ now: '9999-12-31T23:59:59.999Z' }));
    expect(far.status).toBe(400);
    let done = false;
    const move = call(A, 'POST', '/_ofkit/clock/advance/', JSON.stringify({ seconds: 366 * 86_400 })).finally(
      () => {
        done = true;
      },
    );
    let answered = 0;
    while (!done) {
      expect((await call(B, 'GET', '/api/')).status).toBe(200);
      if (!done) answered += 1;
    }
    const moved = await move;
    expect(moved.status).toBe(200);
    expect(JSON.parse(moved.text).jobs_run).toBeGreaterThanOrEqual(366);
    console.log(`tenant-b completed ${answered} requests during a 366-day move of tenant-a`);
    // A loop that never yields lets none through; one yield per job lets many.
    expect(answered).toBeGreaterThanOrEqual(10);
  }, 300_000);
});

describe('a refused import changes nothing', () => {
  it('deep, invalid, dangling, duplicated, unknown, malformed or oversize: 400/413 and the same bytes', async () => {
    expect(
      (
        await call(
          B,
          'POST',
          '/api/links/',
          JSON.stringify({ institution: 'ofbank_br_retail', username: '76109277673', password: 'p' }),
        )
      ).status,
    ).toBe(201);
    await call(B, 'PUT', '/_ofkit/clock/', JSON.stringify({ now: '2026-11-02T12:00:00.000Z', frozen: true }));
    const before = await exportText(simulator, B);
    const snapshot = JSON.parse(before);
    const links = snapshot.state.store.collections['/api/links/'];
    const withRecords = (name: string, records: unknown[]) =>
      JSON.stringify({
        ...snapshot,
        state: {
          ...snapshot.state,
          store: {
            ...snapshot.state.store,
            collections: { ...snapshot.state.store.collections, [name]: records },
          },
        },
      });
    const deep = `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
    const deepIn = (name: string) =>
      withRecords(name, [
        ...(snapshot.state.store.collections[name] ?? []),
        { id: 'deep', link: null, x: '@' },
      ]).replace('"@"', deep);
    const refused: [string, string, number][] = [
      ['a link 10,000 levels deep', deepIn('/api/links/'), 400],
      ['an event 10,000 levels deep', deepIn('_ofkit/events'), 400],
      [
        'a link that is not an API link',
        withRecords('/api/links/', [...links, { id: 'junk', status: 42 }]),
        400,
      ],
      [
        'a record of a link the snapshot lacks',
        withRecords('/api/accounts/', [{ id: 'acc', link: 'nowhere' }]),
        400,
      ],
      ['two records with one id', withRecords('/api/links/', [...links, ...links]), 400],
      ['a collection the API does not have', withRecords('/api/nothing/', [{ id: 'x' }]), 400],
      ['malformed JSON', before.slice(0, -5), 400],
      ['not JSON at all', 'snapshot', 400],
    ];
    for (const [what, body, status] of refused) {
      const answer = await call(B, 'PUT', '/_ofkit/snapshot/', body);
      expect(answer.status, what).toBe(status);
      expect(isErrorArray(answer.text), what).toBe(true);
      expect(await exportText(simulator, B), what).toBe(before);
    }
    const oversize = await call(
      B,
      'PUT',
      '/_ofkit/snapshot/',
      `${before}${' '.repeat(SMALL_LIMIT)}`,
      smallBase,
    );
    expect(oversize.status).toBe(413);
    expect(await exportText(simulator, B)).toBe(before);
    const junk = await call(B, 'GET', '/api/links/junk/');
    expect(junk.status).toBe(404);
  }, 120_000);
});

describe('an export over the API body limit imports back', () => {
  it('a tenant of 4,000 transactions (over 1 MiB) exports and imports into another tenant, byte for byte', async () => {
    const loaded = await bulkLoad(simulator, 20, 200);
    expect(loaded.transactions).toBe(4000);
    await call(
      BENCH,
      'PUT',
      '/_ofkit/clock/',
      JSON.stringify({ now: '2026-11-02T12:00:00.000Z', frozen: true }),
    );
    const exported = await call(BENCH, 'GET', '/_ofkit/snapshot/');
    expect(exported.status).toBe(200);
    expect(Buffer.byteLength(exported.text)).toBeGreaterThan(1_048_576);
    expect(exported.text).toBe(await exportText(simulator, BENCH));
    const imported = await call(A, 'PUT', '/_ofkit/snapshot/', exported.text);
    expect(imported.status, imported.text).toBe(204);
    expect(await exportText(simulator, A)).toBe(exported.text);
    const page = JSON.parse(
      (await call(A, 'GET', `/api/transactions/?link=${loaded.linkIds[3]}&page_size=1000`)).text,
    );
    expect(page.count).toBe(200);
  }, 120_000);
});
