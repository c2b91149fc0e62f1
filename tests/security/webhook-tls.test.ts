/**
 * A webhook to an https URL is verified against the URL's host name, also when the destination check
 * resolved the name itself (the address connected to is the one checked; TLS still names the host).
 * A receiver on loopback presents a certificate for `localhost` only, with no IP address in it, and
 * its CA is trusted: a simulator restricted as one listening beyond loopback delivers to
 * https://localhost (allowed by name), and refuses to deliver to https://127.0.0.1 (allowed by range)
 * since the certificate does not name that address.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { selfSignedCertificate } from '../../simulator/test-support/redis-tls.js';

const CHILD = join(import.meta.dirname, 'tls-delivery-child.ts');
const skip = spawnSync('openssl', ['version']).status !== 0 && !process.env.CI;
const title = skip
  ? 'webhooks over TLS (skipped: openssl not installed: apt-get install openssl)'
  : 'webhooks over TLS';

interface Attempt {
  status: number | null;
  error: string | null;
}

/** The child's deliveries to `url`, with `allow` as its --webhook-allow. */
function deliverFromChild(url: string, allow: string, ca: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, url, allow], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: ca },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise<{ attempts: Attempt[]; violations: string[] }>((resolve, reject) =>
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`child exited ${code}: ${stderr}`)),
    ),
  );
}

describe.skipIf(skip)(title, { timeout: 60_000 }, () => {
  let folder: string;
  let cert: string;
  let receiver: Server;
  let port: number;
  let received = 0;
  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'ofkit-webhook-tls-'));
    const files = await selfSignedCertificate(folder, 'DNS:localhost');
    cert = files.cert;
    receiver = createServer(
      { cert: readFileSync(files.cert), key: readFileSync(files.key) },
      (request, response) => {
        received += 1;
        request.resume();
        request.on('end', () => response.end('ok'));
      },
    );
    await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));
    port = (receiver.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((done) => {
      receiver.close(() => done());
      receiver.closeAllConnections();
    });
    rmSync(folder, { recursive: true, force: true });
  });

  it('delivers to https://localhost, the name the certificate holds', async () => {
    const { attempts, violations } = await deliverFromChild(
      `https://localhost:${port}/hooks`,
      'localhost',
      cert,
    );
    expect(violations).toEqual([]);
    expect(attempts.length).toBeGreaterThan(0);
    expect(attempts.every((attempt) => attempt.status === 200)).toBe(true);
    expect(received).toBe(attempts.length);
  });

  it('does not deliver to https://127.0.0.1, an address the certificate does not name', async () => {
    const before = received;
    const { attempts, violations } = await deliverFromChild(
      `https://127.0.0.1:${port}/hooks`,
      '127.0.0.0/8',
      cert,
    );
    expect(violations).toEqual([]);
    expect(attempts.length).toBeGreaterThan(0);
    for (const attempt of attempts) {
      expect(attempt.status).toBeNull();
      // Not refused by the destination check (127.0.0.0/8 is allowed): the handshake failed.
      expect(attempt.error).toBe('no answer (the connection failed or closed)');
    }
    expect(received).toBe(before);
  });
});
