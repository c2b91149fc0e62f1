import type { Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_NOW, TEST_KEYS } from '../../test-support/contract-checked-simulator.js';
import { pendingTimersOf } from '../../test-support/pending-timers.js';
import { createSimulator } from '../simulator.js';
import { closeGracefully } from './graceful-shutdown.js';
import { createHttpServer, listen } from './http-adapter.js';

let server: Server;
let base: string;
const auth = { authorization: `Basic ${Buffer.from('tenant-a:secret-a').toString('base64')}` };

beforeAll(async () => {
  const simulator = await createSimulator({
    seed: 'e2e',
    environment: 'production',
    keys: TEST_KEYS,
    realTime: () => FIXED_NOW,
  });
  server = createHttpServer({ handle: simulator.handle, maxBodyBytes: 1024 });
  base = await listen(server, 0, '127.0.0.1');
});
afterAll(() => new Promise<void>((done) => server.close(() => done())));

describe('end to end through node:http on an OS-chosen port', () => {
  it('registers a link, reads it back and follows a pagination link built from the Host header', async () => {
    const created = await fetch(`${base}/api/links/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ institution: 'ofbank_br_retail', username: '76109277673', password: 'p' }),
    });
    expect(created.status).toBe(201);
    const link = (await created.json()) as { id: string };
    const detail = await fetch(`${base}/api/links/${link.id}/`, { headers: auth });
    expect(await detail.json()).toMatchObject({ id: link.id });
    const page = (await (await fetch(`${base}/api/institutions/?page_size=2`, { headers: auth })).json()) as {
      next: string;
    };
    expect(page.next.startsWith(`${base}/api/institutions/?`)).toBe(true);
    expect((await fetch(page.next, { headers: auth })).status).toBe(200);
  });

  it('answers an oversize body with 413 in the error format and keeps serving', async () => {
    const oversize = await fetch(`${base}/api/links/`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ institution: 'x'.repeat(5000) }),
    });
    expect(oversize.status).toBe(413);
    expect(((await oversize.json()) as { code: string }[])[0]?.code).toBe('payload_too_large');
    expect((await fetch(`${base}/api/`, { headers: auth })).status).toBe(200);
  });

  it('answers the payment institutions over HTTP (a page with records)', async () => {
    const institutions = await fetch(`${base}/payments/br/institutions/`, { headers: auth });
    expect(institutions.status).toBe(200);
    expect(((await institutions.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });
});

describe('pages written from reused buffers', () => {
  it('answers concurrent pages of different lists each with its own bytes, again and again', async () => {
    for (const username of ['76109277673', '76109277674', '76109277675'])
      await fetch(`${base}/api/links/`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ institution: 'ofbank_br_retail', username, password: 'p' }),
      });
    // Pages of links (their bytes come from the page serializer): three different bodies, sizes too.
    const paths = ['/api/links/?page_size=1', '/api/links/?page_size=3', '/api/links/?page_size=1&page=2'];
    const expected = await Promise.all(
      paths.map(async (path) => await (await fetch(`${base}${path}`, { headers: auth })).text()),
    );
    for (let round = 0; round < 5; round++) {
      const bodies = await Promise.all(
        Array.from({ length: 30 }, async (_, index) => {
          const path = paths[index % paths.length]!;
          return [
            index % paths.length,
            await (await fetch(`${base}${path}`, { headers: auth })).text(),
          ] as const;
        }),
      );
      for (const [which, body] of bodies) expect(body).toBe(expected[which]);
    }
    expect(new Set(expected).size).toBe(3);
    for (const body of expected)
      expect((JSON.parse(body) as { results: unknown[] }).results.length).toBeGreaterThan(0);
  });
});

describe('closeGracefully', () => {
  it('ends within its grace whatever runs: a request that never finishes is cut, the server closes', async () => {
    let started: () => void = () => {};
    const inFlight = new Promise<void>((resolve) => {
      started = resolve;
    });
    const hanging = createHttpServer({
      maxBodyBytes: 1024,
      handle: () => {
        started();
        return new Promise(() => {});
      },
    });
    const url = await listen(hanging, 0, '127.0.0.1');
    const request = fetch(`${url}/api/`).then(
      () => 'answered',
      () => 'cut',
    );
    await inFlight;
    let beforeRan = false;
    const before = () => {
      beforeRan = true;
    };
    await closeGracefully(hanging, { graceMs: 50, before });
    expect(beforeRan).toBe(true);
    expect(await request).toBe('cut');
    expect(hanging.listening).toBe(false);
  });

  it('leaves no timer behind once closed: nothing keeps the process alive for the rest of its grace', async () => {
    const idle = createHttpServer({ maxBodyBytes: 1024, handle: async () => ({ status: 204, headers: {} }) });
    await listen(idle, 0, '127.0.0.1');
    const graceMs = 61_234;
    const left = await pendingTimersOf(graceMs, () => closeGracefully(idle, { graceMs, before: () => {} }));
    expect(idle.listening).toBe(false);
    expect(left).toBe(0);
  });
});

/** Sends `head` as written (no client fixes the Host up) and resolves with the status line and body. */
function rawRequest(head: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.end(`${head}\r\n\r\n`));
    let text = '';
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [headers = '', body = ''] = text.split('\r\n\r\n');
      resolve({ status: Number(headers.split(' ')[1]), body });
    });
  });
}

describe('RFC 9112 3.2: the Host header, answered in the error format', () => {
  const get = `GET /api/links/ HTTP/1.1\r\nauthorization: ${auth.authorization}\r\nconnection: close`;

  it.each([
    ['two Host headers', `${get}\r\nHost: a.example\r\nHost: b.example`, 'more than one Host'],
    ['no Host on HTTP/1.1', get, 'needs a Host'],
    ['a Host that is not host[:port]', `${get}\r\nHost: exa mple`, 'is not a host[:port]'],
    ['a port out of range', `${get}\r\nHost: example:70000`, 'is not a host[:port]'],
  ])('%s: 400 bad_request', async (_, head, message) => {
    const answer = await rawRequest(head);
    expect(answer.status).toBe(400);
    const [error] = JSON.parse(answer.body);
    expect(error.code).toBe('bad_request');
    expect(error.message).toContain(message);
  });

  it('HTTP/1.0 without a Host is answered, its links built from the address it came in on', async () => {
    const answer = await rawRequest(
      `GET /api/links/ HTTP/1.0\r\nauthorization: ${auth.authorization}\r\nconnection: close`,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ count: expect.any(Number) });
  });
});

describe('the headers the core sees', () => {
  it('one string per header, lower-case names: a repeated header joined with commas, set-cookie too', async () => {
    let seen: Readonly<Record<string, string>> = {};
    const echo = createHttpServer({
      maxBodyBytes: 1024,
      handle: async (request) => {
        seen = request.headers;
        return { status: 204, headers: {} };
      },
    });
    const { port } = new URL(await listen(echo, 0, '127.0.0.1'));
    const head = [
      'GET /api/ HTTP/1.1',
      'Host: 127.0.0.1',
      'X-Many: a',
      'x-many: b',
      'Set-Cookie: c=1',
      'set-cookie: d=2',
      'Connection: close',
    ].join('\r\n');
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.end(`${head}\r\n\r\n`));
      socket.on('data', () => undefined);
      socket.on('error', reject);
      socket.on('close', () => resolve());
    });
    await new Promise<void>((done) => echo.close(() => done()));
    expect(seen).toEqual({
      host: '127.0.0.1',
      'x-many': 'a, b',
      'set-cookie': 'c=1, d=2',
      connection: 'close',
    });
  });
});
