/**
 * The recording proxy is transparent: a client gets the implementation's status, headers and body as
 * they were, except absolute URLs to the implementation (a JSON string that starts with its base URL,
 * a Location) pointing at the proxy; the request reaches the implementation as the client sent it;
 * a body above the recording cap passes byte for byte and is recorded without it. When the
 * implementation fails, the client gets the API's error array with a code saying the proxy answered.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { decodedExchange, type Exchange } from '../src/exchange/exchange.js';
import { type RecordingProxy, startRecordingProxy } from '../src/proxy/recording-proxy.js';
import { createUpstreamClient } from '../src/proxy/upstream-client.js';

let upstream: Server;
let base: string;
const received: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[] = [];

const SIZED = JSON.stringify({ results: ['a', 'b'] });

function answer(incoming: IncomingMessage, body: string) {
  const path = incoming.url ?? '/';
  if (path.startsWith('/api/accounts/'))
    return {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'x-custom': 'kept', etag: '"abc"' },
      body: `{ "count": 2, "next": "${base}/api/accounts/?page=2", "previous": null, "note": "see ${base}/api/", "results": [] }`,
    };
  if (path === '/redirect') return { status: 302, headers: { location: `${base}/api/` }, body: '' };
  if (path === '/text')
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: `at ${base}/api/` };
  if (path === '/big')
    return {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ next: `${base}/x`, pad: 'x'.repeat(4000) }),
    };
  if (path === '/sized')
    return {
      status: 200,
      headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(SIZED)) },
      body: SIZED,
    };
  if (path === '/not-modified') return { status: 304, headers: { etag: '"abc"' }, body: '' };
  if (path === '/cookies')
    return { status: 201, headers: { 'set-cookie': ['a=1; Path=/', 'b=2; HttpOnly'] }, body: '' };
  return {
    status: 418,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ echo: body }),
  };
}

beforeAll(async () => {
  upstream = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({
        method: incoming.method ?? '',
        url: incoming.url ?? '',
        headers: incoming.headers,
        body,
      });
      const { status, headers, body: out } = answer(incoming, body);
      response.writeHead(status, headers);
      response.end(out);
    });
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

async function withProxy<T>(
  upstreamUrl: string,
  run: (url: string, exchanges: Exchange[]) => Promise<T>,
  timeoutSeconds = 30,
): Promise<T> {
  const client = await createUpstreamClient({ env: {}, systemBundles: [] });
  const exchanges: Exchange[] = [];
  const proxy: RecordingProxy = await startRecordingProxy(
    {
      upstream: upstreamUrl,
      client,
      timeoutSeconds,
      maxRecordedBytes: 1024,
      onExchange: (e) => exchanges.push(decodedExchange(e)),
    },
    0,
    '127.0.0.1',
  );
  try {
    return await run(`http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`, exchanges);
  } finally {
    await proxy.close();
    await client.close();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

/** Sends `head` (a request line and headers, as typed) on a new connection; the answer as text. */
function rawRequest(proxy: string, head: string): Promise<string> {
  const { port } = new URL(proxy);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () =>
      socket.write(`${head}\r\nconnection: close\r\n\r\n`),
    );
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.on('error', reject);
  });
}

describe('the recording proxy is transparent', () => {
  it('passes status, headers and body, rewriting only the JSON strings that start with the base URL', async () => {
    await withProxy(base, async (proxy, exchanges) => {
      const answered = await request(`${proxy}/api/accounts/?page=1`);
      const text = await answered.body.text();
      expect(answered.statusCode).toBe(200);
      expect(answered.headers['x-custom']).toBe('kept');
      expect(answered.headers.etag).toBe('"abc"');
      expect(answered.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(answered.headers['content-length'])).toBe(Buffer.byteLength(text));
      expect(text).toBe(
        `{ "count": 2, "next": "${proxy}/api/accounts/?page=2", "previous": null, "note": "see ${base}/api/", "results": [] }`,
      );
      await settle();
      // The recording holds what the implementation said, not the rewritten answer.
      expect(exchanges[0]?.response.body).toContain(`"next": "${base}/api/accounts/?page=2"`);
      expect(exchanges[0]?.request.url).toBe(`${base}/api/accounts/?page=1`);
    });
  });

  it('rewrites a Location, leaves other media types and repeated headers alone', async () => {
    await withProxy(base, async (proxy) => {
      const moved = await request(`${proxy}/redirect`);
      await moved.body.dump();
      expect(moved.statusCode).toBe(302);
      expect(moved.headers.location).toBe(`${proxy}/api/`);
      const text = await request(`${proxy}/text`);
      expect(await text.body.text()).toBe(`at ${base}/api/`);
      const cookies = await request(`${proxy}/cookies`);
      await cookies.body.dump();
      expect(cookies.statusCode).toBe(201);
      expect(cookies.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; HttpOnly']);
    });
  });

  it('keeps the length a HEAD answer announces, and adds none to a 304 (no body follows either)', async () => {
    await withProxy(base, async (proxy, exchanges) => {
      const head = await request(`${proxy}/sized`, { method: 'HEAD' });
      await head.body.dump();
      expect(head.statusCode).toBe(200);
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(SIZED)));
      const notModified = await request(`${proxy}/not-modified`);
      await notModified.body.dump();
      expect(notModified.statusCode).toBe(304);
      expect(notModified.headers.etag).toBe('"abc"');
      expect(notModified.headers['content-length']).toBeUndefined();
      await settle();
      expect(exchanges.map((exchange) => [exchange.request.method, exchange.response.body])).toEqual([
        ['HEAD', undefined],
        ['GET', undefined],
      ]);
    });
  });

  it('forwards the request as sent: method, path and query, headers, body', async () => {
    await withProxy(base, async (proxy) => {
      const body = '{"a":1,  "b":"ü"}';
      const sent = await request(`${proxy}/echo?x=1&y=%2C`, {
        method: 'PATCH',
        headers: {
          'content-type': 'application/json',
          'x-service-request-mode': 'async',
          authorization: 'Basic YTpi',
        },
        body,
      });
      expect(sent.statusCode).toBe(418);
      expect(await sent.body.json()).toEqual({ echo: body });
      const seen = received.at(-1)!;
      expect(seen).toMatchObject({ method: 'PATCH', url: '/echo?x=1&y=%2C', body });
      expect(seen.headers['x-service-request-mode']).toBe('async');
      expect(seen.headers.authorization).toBe('Basic YTpi');
      expect(seen.headers.host).toBe(new URL(base).host);
    });
  });

  it('forwards a body sent in chunks (no length) in chunks, and a DELETE without a body with none', async () => {
    await withProxy(base, async (proxy) => {
      const parts = ['{"part":', '"one"', ',"then":"two"}'];
      // DELETE too: node:http frames no body of its own for it, so the chunks must be asked for.
      for (const method of ['POST', 'DELETE'] as const) {
        const sent = await request(`${proxy}/echo`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: Readable.from(parts.map((part) => Buffer.from(part))),
        });
        expect(sent.statusCode).toBe(418);
        expect(await sent.body.json()).toEqual({ echo: parts.join('') });
        expect(received.at(-1)?.headers['transfer-encoding']).toBe('chunked');
      }
      const deleted = await request(`${proxy}/echo`, { method: 'DELETE' });
      expect(await deleted.body.json()).toEqual({ echo: '' });
      expect(received.at(-1)).toMatchObject({ method: 'DELETE', body: '' });
      expect(received.at(-1)?.headers['transfer-encoding']).toBeUndefined();
    });
  });

  it('passes a body above the recording cap byte for byte and records it without the body', async () => {
    await withProxy(base, async (proxy, exchanges) => {
      const big = await request(`${proxy}/big`);
      const text = await big.body.text();
      expect(text).toBe(JSON.stringify({ next: `${base}/x`, pad: 'x'.repeat(4000) }));
      await settle();
      expect(exchanges[0]?.response).toMatchObject({ status: 200, bodyOmitted: true });
      expect(exchanges[0]?.response.body).toBeUndefined();
    });
  });
});

describe('an implementation that fails gets the API error array from the proxy', () => {
  it("unreachable: 502 proxy_upstream_unreachable, recorded as the proxy's answer", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const gone = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    await withProxy(gone, async (proxy, exchanges) => {
      const failed = await request(`${proxy}/api/`);
      expect(failed.statusCode).toBe(502);
      const [item] = (await failed.body.json()) as { request_id: string; message: string; code: string }[];
      expect(item).toMatchObject({ code: 'proxy_upstream_unreachable' });
      expect(item?.request_id).toMatch(/^ofkit-proxy-\d{6}$/);
      expect(item?.message).toContain(gone);
      await settle();
      expect(exchanges[0]?.upstreamFailure?.code).toBe('proxy_upstream_unreachable');
    });
  });

  it("a body that stops coming: 504 proxy_upstream_timeout, recorded as the proxy's answer", async () => {
    const stalling = createServer((_incoming, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      response.write('{"results": [');
    });
    await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
    try {
      await withProxy(
        `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`,
        async (proxy, exchanges) => {
          const failed = await request(`${proxy}/api/`);
          expect(failed.statusCode).toBe(504);
          const [item] = (await failed.body.json()) as { message: string; code: string }[];
          expect(item).toMatchObject({ code: 'proxy_upstream_timeout' });
          expect(item?.message).toMatch(/did not answer in time: no answer within 0\.3 s \(ETIMEDOUT\)\.$/);
          await settle();
          expect(exchanges[0]?.upstreamFailure?.code).toBe('proxy_upstream_timeout');
        },
        0.3,
      );
    } finally {
      stalling.closeAllConnections();
      stalling.close();
    }
  });

  it('no answer in time: 504 proxy_upstream_timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      await withProxy(
        `http://127.0.0.1:${(silent.address() as AddressInfo).port}`,
        async (proxy) => {
          const failed = await request(`${proxy}/api/`);
          expect(failed.statusCode).toBe(504);
          expect(await failed.body.json()).toMatchObject([{ code: 'proxy_upstream_timeout' }]);
        },
        0.3,
      );
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it('takes the absolute form of a request target, answers OPTIONS * with its own 400, keeps serving', async () => {
    await withProxy(base, async (proxy, exchanges) => {
      const absolute = await rawRequest(
        proxy,
        'GET http://localhost/api/accounts/?page=1 HTTP/1.1\r\nhost: localhost',
      );
      expect(absolute).toMatch(/^HTTP\/1\.1 200 /);
      // A Host nobody configured is refused as the simulator refuses it (DNS rebinding).
      const foreign = 'GET http://elsewhere.example/api/accounts/ HTTP/1.1\r\nhost: elsewhere.example';
      expect(await rawRequest(proxy, foreign)).toMatch(/^HTTP\/1\.1 421 /);
      await settle();
      expect(exchanges[0]?.request.url).toBe(`${base}/api/accounts/?page=1`);
      const asterisk = await rawRequest(proxy, `OPTIONS * HTTP/1.1\r\nhost: 127.0.0.1`);
      expect(asterisk).toMatch(/^HTTP\/1\.1 400 /);
      expect(asterisk).toContain('"code":"proxy_request_target"');
      expect((await request(`${proxy}/api/accounts/`)).statusCode).toBe(200);
    });
  });

  it('answers what it refuses before a request exists with its own error array, recording nothing', async () => {
    await withProxy(base, async (proxy, exchanges) => {
      const refused = async (head: string, status: number, code: string) => {
        const answer = await rawRequest(proxy, head);
        expect(answer).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
        const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
        expect(body).toEqual([
          { request_id: expect.stringMatching(/^ofkit-proxy-/), message: expect.any(String), code },
        ]);
        return body[0].message as string;
      };
      await refused(
        `GET /api/ HTTP/1.1\r\nhost: x\r\nx-big: ${'x'.repeat(20_000)}`,
        431,
        'proxy_request_header_fields_too_large',
      );
      await refused('GET /api/ HTTP/1.1\r\nhost: x\r\ncontent-length: abc', 400, 'proxy_bad_request');
      const tunnel = await refused(
        'CONNECT api.example:443 HTTP/1.1\r\nhost: api.example:443',
        405,
        'proxy_no_tunnel',
      );
      expect(tunnel).toContain(`give the client ${proxy} as the API's base URL`);
      // A request line alone past the limit (no line break came yet): 414.
      const line = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(proxy).port), '127.0.0.1', () =>
          socket.write(`GET /api/${'a'.repeat(20_000)}`),
        );
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });
      expect(line).toMatch(/^HTTP\/1\.1 414 /);
      expect(line).toContain('"code":"proxy_uri_too_long"');
      await settle();
      expect(exchanges).toEqual([]);
      expect((await request(`${proxy}/api/accounts/`)).statusCode).toBe(200);
    });
  });

  it.each([
    ['an answer', () => base, 200],
    ["the proxy's own failure", () => 'http://127.0.0.1:1', 502],
  ])('passes %s on and keeps serving when recording the exchange fails', async (_what, upstream, status) => {
    const client = await createUpstreamClient({ env: {}, systemBundles: [] });
    const proxy = await startRecordingProxy(
      {
        upstream: upstream(),
        client,
        timeoutSeconds: 5,
        maxRecordedBytes: 1024,
        onExchange: () => {
          throw new Error('the recording broke');
        },
      },
      0,
      '127.0.0.1',
    );
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
      for (let attempt = 0; attempt < 2; attempt++) {
        const answered = await request(`${url}/api/accounts/`);
        expect(answered.statusCode).toBe(status);
        await answered.body.text();
        await settle();
      }
      expect(errors.mock.calls.map(String).join('\n')).toMatch(
        /GET \/api\/accounts\/: the exchange could not be recorded: Error: the recording broke/,
      );
    } finally {
      errors.mockRestore();
      await proxy.close();
      await client.close();
    }
  });
});
