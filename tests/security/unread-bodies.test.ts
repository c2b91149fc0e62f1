/**
 * The caller is known before a body is read. An unauthenticated request is answered 401 from its
 * headers while its body is still on the way (the snapshot import's 18 MB of whitespace, an API POST of
 * megabytes): never buffered, never parsed; a small body is drained so the connection stays usable, a
 * large one closes it. One snapshot import at a time per tenant: a second is refused at once, unread.
 * The socket's time-outs and connection cap bound what a slow or greedy client holds.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { DEFAULT_CONNECTION_LIMITS } from '../../simulator/src/server/connection-limits.js';
import { createHttpServer } from '../../simulator/src/server/http-adapter.js';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { contractCheckedExchange } from '../../simulator/test-support/contract-checked-simulator.js';
import { basic, probe, rawConnection } from './http-probes.js';

const [A, B] = DEFAULT_KEYS as [(typeof DEFAULT_KEYS)[0], (typeof DEFAULT_KEYS)[0]];
const AUTH_A = basic(A.secretId, A.secretPassword);
const AUTH_B = basic(B.secretId, B.secretPassword);
const violations: string[] = [];
let simulator: StartedSimulator;

beforeAll(async () => {
  simulator = await startSimulator({
    seed: 'unread-bodies',
    tickMs: 0,
    onExchange: contractCheckedExchange(violations),
  });
});
afterAll(async () => {
  await simulator.close();
  expect(violations).toEqual([]);
});

/** A request line and headers declaring a body of `length` bytes (none of it sent yet). */
const head = (method: string, path: string, length: number, authorization?: string) =>
  [
    `${method} ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Content-Type: application/json',
    `Content-Length: ${length}`,
    ...(authorization ? [`Authorization: ${authorization}`] : []),
    '',
    '',
  ].join('\r\n');

const snapshot = JSON.stringify({
  format: 'ofkit-snapshot/2',
  clock: { now: '2026-11-02T12:00:00.000Z', frozen: true },
  state: { store: { collections: {}, windows: {} }, scenarios: [], faults: [] },
});

describe('an unauthenticated body is never read', () => {
  it('the snapshot import and an API POST answer 401 while most of the body is still unsent; the connection closes', async () => {
    for (const [method, path] of [
      ['PUT', '/_ofkit/snapshot/'],
      ['POST', '/api/links/'],
    ] as const) {
      const connection = await rawConnection(simulator.url);
      connection.write(head(method, path, 18_000_000));
      connection.write(' '.repeat(100_000));
      const answer = await connection.until('}]');
      expect(answer, path).toMatch(/^HTTP\/1\.1 401 /);
      expect(answer).toContain('"code":"authentication_failed"');
      expect(answer.toLowerCase()).toContain('connection: close');
      await connection.closed;
    }
  });

  it('a small body is drained: the answer is 401 and the connection serves the next request', async () => {
    const connection = await rawConnection(simulator.url);
    connection.write(`${head('POST', '/api/links/', 2)}{}`);
    await connection.until('authentication_failed');
    connection.write(`GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH_A}\r\n\r\n`);
    expect(await connection.until('"version"')).toMatch(/HTTP\/1\.1 200 /);
    connection.socket.destroy();
  });
});

describe('one snapshot import at a time per tenant', () => {
  it('a second import of the tenant is refused at once (409, unread) while the first runs; others import', async () => {
    const first = await rawConnection(simulator.url);
    first.write(head('PUT', '/_ofkit/snapshot/', snapshot.length, AUTH_A));
    first.write(snapshot.slice(0, 20));
    // The first import holds the tenant's lease until its body is in and answered.
    await expect.poll(async () => (await importOf(AUTH_A)).status).toBe(409);
    const refused = await importOf(AUTH_A);
    expect(refused.json[0]).toMatchObject({ code: 'import_in_progress' });
    expect((await importOf(AUTH_B)).status).toBe(204);
    first.write(snapshot.slice(20));
    expect(await first.until('\r\n\r\n')).toMatch(/^HTTP\/1\.1 204 /);
    first.socket.destroy();
    expect((await importOf(AUTH_A)).status).toBe(204);
  });
});

describe('the socket bounds what a slow or greedy client holds', () => {
  it('defaults: 10 s for the headers, 10 min for a request (a 1 GiB import), 65 s idle (a load balancer pool), 1,024 connections', () => {
    const server = createHttpServer({
      handle: async () => ({ status: 204, headers: {} }),
      maxBodyBytes: 1024,
    });
    expect(server.headersTimeout).toBe(DEFAULT_CONNECTION_LIMITS.headersTimeoutMs);
    expect(server.requestTimeout).toBe(DEFAULT_CONNECTION_LIMITS.requestTimeoutMs);
    expect(server.keepAliveTimeout).toBe(DEFAULT_CONNECTION_LIMITS.keepAliveTimeoutMs);
    expect(server.maxConnections).toBe(DEFAULT_CONNECTION_LIMITS.maxConnections);
    expect(DEFAULT_CONNECTION_LIMITS).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 600_000,
      keepAliveTimeoutMs: 65_000,
      maxConnections: 1_024,
    });
  });

  it('headers trickling past the time-out get 408 and a closed connection; past the cap a connection is closed', async () => {
    const limited = await startSimulator({
      seed: 'limits',
      tickMs: 0,
      limits: { headersTimeoutMs: 300, maxConnections: 2 },
    });
    try {
      const slow = await rawConnection(limited.url);
      slow.write('GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      await slow.closed;
      expect(slow.received()).toMatch(/^HTTP\/1\.1 408 /);
      const held = [await rawConnection(limited.url), await rawConnection(limited.url)];
      const third = await rawConnection(limited.url);
      third.write(`GET /api/ HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${AUTH_A}\r\n\r\n`);
      await third.closed;
      expect(third.received()).toBe('');
      for (const connection of held) connection.socket.destroy();
    } finally {
      await limited.close();
    }
  });
});

function importOf(authorization: string) {
  return probe(simulator.url, '/_ofkit/snapshot/', {
    method: 'PUT',
    headers: { authorization, 'content-type': 'application/json' },
    body: snapshot,
  });
}
