/**
 * `ofkit proxy`: Prism's validation proxy with this document in front of an implementation flags an
 * answer that breaks the document and lets through one that keeps it; a page's `next` and `previous`
 * point at the proxy, not the implementation, and following them stays behind it; it stops cleanly.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { proxy } from '../../scripts/cli/proxy.js';

const AUTH = `Basic ${Buffer.from('any-id:any-secret').toString('base64')}`;
let upstream: Server;
let upstreamUrl: string;

beforeAll(async () => {
  upstream = createServer((incoming, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    // GET /api/ keeps the document (ApiRoot); the institutions page breaks it (count is no integer);
    // the accounts pages keep it and link to each other with the implementation's absolute URLs.
    const body = incoming.url?.startsWith('/api/accounts/')
      ? accountsPage(new URL(incoming.url, upstreamUrl).searchParams.get('page') ?? '1')
      : incoming.url?.startsWith('/api/institutions/')
        ? { count: 'many' }
        : { service: 'upstream', version: '1.223.0', environment: 'production' };
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});

function accountsPage(page: string) {
  const at = (n: number) => `${upstreamUrl}/api/accounts/?page=${n}&page_size=1`;
  return page === '1'
    ? { count: 2, next: at(2), previous: null, results: [] }
    : { count: 2, next: null, previous: at(1), results: [] };
}

afterAll(() => {
  upstream.closeAllConnections();
  upstream.close();
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function get(url: string) {
  const answer = await request(url, { headers: { authorization: AUTH } });
  return { status: answer.statusCode, headers: answer.headers, text: await answer.body.text() };
}

async function waitFor(url: string, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      await get(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`the proxy did not start at ${url}`);
}

describe('ofkit proxy', () => {
  it('flags a response that breaks the document and passes one that keeps it', {
    timeout: 40_000,
  }, async () => {
    const port = await freePort();
    const stop = new AbortController();
    const exit = proxy([upstreamUrl, '--port', String(port)], { signal: stop.signal, stdio: 'ignore' });
    const base = `http://127.0.0.1:${port}`;
    try {
      await waitFor(`${base}/api/`, Date.now() + 30_000);
      const kept = await get(`${base}/api/`);
      expect(kept.status).toBe(200);
      expect(JSON.parse(kept.text)).toMatchObject({ service: 'upstream' });
      const broken = await get(`${base}/api/institutions/`);
      expect(broken.status).toBe(500);
      expect(String(broken.headers['sl-violations'])).toContain('count');

      const first = await get(`${base}/api/accounts/?page_size=1`);
      expect(first.status).toBe(200);
      const page1 = JSON.parse(first.text);
      expect(page1.next).toBe(`${base}/api/accounts/?page=2&page_size=1`);
      expect(Number(first.headers['content-length'])).toBe(Buffer.byteLength(first.text));
      const second = await get(page1.next);
      expect(second.status).toBe(200);
      expect(JSON.parse(second.text)).toMatchObject({
        next: null,
        previous: `${base}/api/accounts/?page=1&page_size=1`,
      });
    } finally {
      stop.abort();
    }
    expect(await exit).toBe(0);
  });

  it('refuses a missing base URL with exit code 2', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await proxy(['--port', '1'], { stdio: 'ignore' })).toBe(2);
  });
});
