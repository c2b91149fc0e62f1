/**
 * How the proxy reaches the implementation: the trust store joins Node's roots, the platform's bundle
 * and NODE_EXTRA_CA_CERTS; the egress proxy comes from the environment given; a failure becomes the
 * proxy's error of its kind (unreachable, TLS, time-out).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { createUpstreamClient } from './upstream-client.js';
import { failureBody, upstreamFailureOf } from './upstream-failure.js';
import type { UpstreamAnswer, UpstreamClient } from './upstream-request.js';
import { trustedCertificates } from './upstream-trust.js';

describe('trustedCertificates', () => {
  it("joins Node's roots, the platform bundle found and NODE_EXTRA_CA_CERTS", async () => {
    const folder = await mkdtemp(join(tmpdir(), 'ofkit-ca-'));
    try {
      const bundle = join(folder, 'system.pem');
      const extra = join(folder, 'extra.pem');
      await writeFile(bundle, 'SYSTEM');
      await writeFile(extra, 'EXTRA');
      const trusted = trustedCertificates({
        env: { NODE_EXTRA_CA_CERTS: extra },
        systemBundles: [join(folder, 'none.pem'), bundle],
      });
      expect(trusted.ca.slice(0, rootCertificates.length)).toEqual([...rootCertificates]);
      expect(trusted.ca.slice(rootCertificates.length)).toEqual(expect.arrayContaining(['EXTRA']));
      expect(trusted.sources.at(-1)).toBe(`NODE_EXTRA_CA_CERTS (${extra})`);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('says which egress proxy the environment names', async () => {
    const direct = await createUpstreamClient({ env: {}, systemBundles: [] });
    const egress = await createUpstreamClient({
      env: { HTTPS_PROXY: 'http://127.0.0.1:3128' },
      systemBundles: [],
    });
    expect(direct.description).toMatch(/no egress proxy$/);
    expect(egress.description).toMatch(/egress proxy http:\/\/127\.0\.0\.1:3128$/);
    await Promise.all([direct.close(), egress.close()]);
  });
});

describe('upstreamFailureOf', () => {
  const wrapped = (code: string) =>
    Object.assign(new Error('fetch failed'), {
      cause: Object.assign(new Error(code.toLowerCase()), { code }),
    });

  it('names the kind of failure with a proxy code and status', () => {
    expect(upstreamFailureOf(wrapped('ECONNREFUSED'), 'http://a')).toMatchObject({
      status: 502,
      failure: { code: 'proxy_upstream_unreachable' },
    });
    expect(upstreamFailureOf(wrapped('ENOTFOUND'), 'http://a')).toMatchObject({
      status: 502,
      failure: { code: 'proxy_upstream_unreachable' },
    });
    expect(upstreamFailureOf(wrapped('DEPTH_ZERO_SELF_SIGNED_CERT'), 'https://a')).toMatchObject({
      status: 502,
      failure: { code: 'proxy_upstream_tls' },
    });
    expect(upstreamFailureOf(wrapped('ERR_TLS_CERT_ALTNAME_INVALID'), 'https://a')).toMatchObject({
      failure: { code: 'proxy_upstream_tls' },
    });
    expect(upstreamFailureOf(wrapped('UND_ERR_HEADERS_TIMEOUT'), 'http://a')).toMatchObject({
      status: 504,
      failure: { code: 'proxy_upstream_timeout' },
    });
  });

  it("answers the API's error array", () => {
    const answer = upstreamFailureOf(wrapped('ECONNREFUSED'), 'http://a');
    const [item] = JSON.parse(failureBody(answer, 'ofkit-proxy-000001'));
    expect(Object.keys(item).sort()).toEqual(['code', 'message', 'request_id']);
    expect(item.message).toMatch(
      /^The API at http:\/\/a cannot be reached: fetch failed: econnrefused \(ECONNREFUSED\)\.$/,
    );
  });
});

describe('the direct upstream client', () => {
  /**
   * An implementation whose first connection goes stale after its first answer (as when its idle
   * time-out closes a kept-alive connection just as the next request is written on it): the next
   * request on that connection finds it closed, with no answer.
   */
  async function staleAfterFirstAnswer(): Promise<{
    server: Server;
    url: string;
    connections: () => number;
  }> {
    let connections = 0;
    const served = new WeakMap<Socket, number>();
    const server = createServer((request, response) => {
      const count = (served.get(request.socket) ?? 0) + 1;
      served.set(request.socket, count);
      if (connections === 1 && count === 2) {
        request.socket.destroy();
        return;
      }
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify({ method: request.method, connection: connections }));
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return { server, url: `http://127.0.0.1:${port}/api/links/`, connections: () => connections };
  }

  async function bodyOf(answer: UpstreamAnswer): Promise<unknown> {
    const chunks: Buffer[] = [];
    for (let next = await answer.body.next(); !next.done; next = await answer.body.next())
      chunks.push(next.value);
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }

  async function withClient(
    run: (client: UpstreamClient, url: string, connections: () => number) => Promise<void>,
  ) {
    const stale = await staleAfterFirstAnswer();
    const client = await createUpstreamClient({ env: {}, systemBundles: [] });
    try {
      await run(client, stale.url, stale.connections);
    } finally {
      await client.close();
      await new Promise((resolve) => stale.server.close(resolve));
    }
  }

  it('sends a GET again on a new connection when its kept-alive one was closed, once', async () => {
    await withClient(async (client, url, connections) => {
      const request = { method: 'GET', url, headers: {}, timeoutMs: 5_000 };
      expect(await bodyOf(await client.send(request))).toEqual({ method: 'GET', connection: 1 });
      const again = await client.send(request);
      expect(again.statusCode).toBe(200);
      expect(await bodyOf(again)).toEqual({ method: 'GET', connection: 2 });
      expect(connections()).toBe(2);
    });
  });

  it('never sends a POST twice: the stale connection fails it', async () => {
    await withClient(async (client, url, connections) => {
      const get = { method: 'GET', url, headers: {}, timeoutMs: 5_000 };
      await bodyOf(await client.send(get));
      await expect(client.send({ ...get, method: 'POST' })).rejects.toMatchObject({ code: 'ECONNRESET' });
      expect(connections()).toBe(1);
    });
  });
});
