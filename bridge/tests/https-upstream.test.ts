/**
 * An HTTPS implementation behind the recording proxy: trusted through NODE_EXTRA_CA_CERTS (a CA made
 * for the test with openssl), refused as a TLS failure without it (502 `proxy_upstream_tls`), and
 * reached through the egress proxy HTTPS_PROXY names (a CONNECT proxy that counts its tunnels).
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../src/recording/recorder.js';

const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

let folder: string;
let caPath: string;
let upstream: Server;
let upstreamUrl: string;
let egress: Server;
const tunnels: string[] = [];
/** What the HTTPS implementation received of the request bodies. */
const bodies: string[] = [];

async function makeCertificates(dir: string): Promise<{ key: string; cert: string }> {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=ofkit test CA',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
    '-subj',
    '/CN=127.0.0.1',
  );
  await writeFile(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.pem',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
  return {
    key: await readFile(join(dir, 'server.key'), 'utf8'),
    cert: await readFile(join(dir, 'server.pem'), 'utf8'),
  };
}

beforeAll(async () => {
  if (!openssl) return;
  folder = await mkdtemp(join(tmpdir(), 'ofkit-tls-'));
  caPath = join(folder, 'ca.pem');
  upstream = createHttpsServer(await makeCertificates(folder), (incoming, response) => {
    incoming.on('data', (chunk: Buffer) => bodies.push(chunk.toString()));
    response.writeHead(200, { 'content-type': 'application/json' });
    const page = { count: 1, next: `${upstreamUrl}/api/links/?page=2`, previous: null, results: [] };
    response.end(
      JSON.stringify(
        incoming.url?.startsWith('/api/links/')
          ? page
          : { service: 'tls', version: '1.223.0', environment: 'sandbox' },
      ),
    );
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `https://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  egress = createHttpServer();
  egress.on('connect', (req, client, head) => {
    tunnels.push(String(req.url));
    const [host, port] = String(req.url).split(':');
    const server = connectTcp(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      server.write(head);
      server.pipe(client);
      client.pipe(server);
    });
    server.on('error', () => client.destroy());
    client.on('error', () => server.destroy());
  });
  await new Promise<void>((resolve) => egress.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  if (!openssl) return;
  upstream.closeAllConnections();
  upstream.close();
  egress.closeAllConnections();
  egress.close();
  await rm(folder, { recursive: true, force: true });
});

async function through(env: NodeJS.ProcessEnv, path: string, options: Parameters<typeof request>[1] = {}) {
  const recorder = await startRecorder({ upstream: upstreamUrl, env });
  try {
    const answer = await request(`${recorder.url}${path}`, options);
    return {
      status: answer.statusCode,
      body: (await answer.body.json()) as Record<string, unknown>,
      url: recorder.url,
    };
  } finally {
    await recorder.close();
  }
}

describe.skipIf(!openssl)('an HTTPS implementation (skipped without openssl: it makes the test CA)', () => {
  it('is trusted through NODE_EXTRA_CA_CERTS, its absolute URLs rewritten to the proxy', async () => {
    const { status, body, url } = await through({ NODE_EXTRA_CA_CERTS: caPath }, '/api/links/');
    expect(status).toBe(200);
    expect(body.next).toBe(`${url}/api/links/?page=2`);
  });

  it('is a TLS failure without it: 502 proxy_upstream_tls', async () => {
    const { status, body } = await through({}, '/api/');
    expect(status).toBe(502);
    expect(body).toMatchObject([{ code: 'proxy_upstream_tls' }]);
  });

  it('is reached through the egress proxy HTTPS_PROXY names', async () => {
    const before = tunnels.length;
    const egressUrl = `http://127.0.0.1:${(egress.address() as AddressInfo).port}`;
    const { status, body } = await through({ NODE_EXTRA_CA_CERTS: caPath, HTTPS_PROXY: egressUrl }, '/api/');
    expect(status).toBe(200);
    expect(body).toMatchObject({ service: 'tls' });
    expect(tunnels.slice(before)).toContain(new URL(upstreamUrl).host);
  });

  it('gets a body sent in chunks, through the egress proxy too', async () => {
    const egressUrl = `http://127.0.0.1:${(egress.address() as AddressInfo).port}`;
    const before = bodies.length;
    const { status } = await through({ NODE_EXTRA_CA_CERTS: caPath, HTTPS_PROXY: egressUrl }, '/api/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: Readable.from([Buffer.from('{"sent":'), Buffer.from('"in chunks"}')]),
    });
    expect(status).toBe(200);
    expect(bodies.slice(before).join('')).toBe('{"sent":"in chunks"}');
  });
});
