/**
 * What already held against a page of another site, locked in: no CORS header is ever sent (a page of
 * another origin cannot read an answer), no `WWW-Authenticate` (a browser never prompts for, keeps and
 * replays Basic credentials across sites: no CSRF), the dashboard cannot be framed and its files are
 * never sniffed as another type, and its paths never reach a file outside its assets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { basic, probe, rawConnection } from './http-probes.js';

const KEY = DEFAULT_KEYS[0]!;
let simulator: StartedSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ seed: 'browser-boundaries', tickMs: 0 });
});
afterAll(() => simulator.close());

const corsHeaders = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'));

describe('a page of another site', () => {
  it('gets no CORS header, to a preflight nor to a request, with or without credentials', async () => {
    const origin = { origin: 'https://attacker.example' };
    const preflight = await probe(simulator.url, '/_ofkit/reset/', {
      method: 'OPTIONS',
      headers: {
        ...origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(corsHeaders(preflight.headers)).toEqual([]);
    const read = await probe(simulator.url, '/api/links/', {
      headers: { ...origin, authorization: basic(KEY.secretId, KEY.secretPassword) },
    });
    expect(read.status).toBe(200);
    expect(corsHeaders(read.headers)).toEqual([]);
  });

  it('never makes a browser prompt for, and keep, Basic credentials (no WWW-Authenticate on a 401)', async () => {
    const refused = await probe(simulator.url, '/_ofkit/snapshot/');
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBeUndefined();
  });

  it('cannot frame the dashboard, nor have its files sniffed as another type', async () => {
    const page = await probe(simulator.url, '/_ofkit/ui/');
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-content-type-options']).toBe('nosniff');
  });

  it("never reaches a file outside the dashboard's assets", async () => {
    for (const path of [
      '/_ofkit/ui/../../package.json',
      '/_ofkit/ui/%2e%2e/%2e%2e/package.json',
      '/_ofkit/ui/..%2fserve-dashboard.ts',
    ]) {
      const connection = await rawConnection(simulator.url);
      connection.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
      await connection.closed;
      const answer = connection.received();
      expect(answer, path).toMatch(/^HTTP\/1\.1 404 /);
      expect(answer).not.toContain('"name": "ofkit"');
    }
  });
});
