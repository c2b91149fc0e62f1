/**
 * DNS rebinding: a page of another site whose name is made to resolve to 127.0.0.1 reaches the
 * simulator with that name in `Host`, the published default key in hand. Every route (the API, the
 * control API, the dashboard) refuses a Host nobody configured, in the API's error array; localhost,
 * *.localhost and IP literals are answered without configuration, `--allowed-host` and `--public-url`
 * add names, and pagination links are built only from an accepted Host or the public URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRecorder } from '../../bridge/src/recording/recorder.js';
import { DEFAULT_KEYS } from '../../simulator/src/config/simulator-config.js';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { contractCheckedExchange } from '../../simulator/test-support/contract-checked-simulator.js';
import { basic, probe } from './http-probes.js';

const KEY = DEFAULT_KEYS[0]!;
const AUTH = { authorization: basic(KEY.secretId, KEY.secretPassword) };
const started: StartedSimulator[] = [];
const violations: string[] = [];

async function start(options: Parameters<typeof startSimulator>[0] = {}): Promise<StartedSimulator> {
  const simulator = await startSimulator({
    seed: 'dns-rebinding',
    tickMs: 0,
    onExchange: contractCheckedExchange(violations),
    ...options,
  });
  started.push(simulator);
  return simulator;
}

let plain: StartedSimulator;
let port: string;
beforeAll(async () => {
  plain = await start();
  port = new URL(plain.url).port;
});
afterAll(async () => {
  await Promise.all(started.map((simulator) => simulator.close()));
  expect(violations).toEqual([]);
});

/** The status a request to the simulator gets with this Host. */
const statusWith = async (simulator: StartedSimulator, host: string, path = '/api/') =>
  (await probe(simulator.url, path, { host, headers: AUTH })).status;

describe('a foreign Host is refused on every route, in the error array', () => {
  it('reset, webhook configuration, snapshot, the API and the dashboard: 421 misdirected_request, nothing done', async () => {
    const host = `rebind.attacker.example:${port}`;
    const attempts = [
      { method: 'POST', path: '/_ofkit/reset/' },
      { method: 'PUT', path: '/_ofkit/webhooks/', body: JSON.stringify({ url: 'http://127.0.0.1:9/' }) },
      { method: 'GET', path: '/_ofkit/snapshot/' },
      { method: 'GET', path: '/api/links/' },
      { method: 'GET', path: '/_ofkit/ui/' },
      { method: 'GET', path: '/_ofkit/ui/keys' },
    ];
    for (const { method, path, body } of attempts) {
      const headers = { ...AUTH, ...(body && { 'content-type': 'application/json' }) };
      const answer = await probe(plain.url, path, { method, host, headers, ...(body && { body }) });
      expect(answer.status, `${method} ${path}`).toBe(421);
      expect(answer.json).toEqual([
        {
          request_id: expect.stringMatching(/^[0-9a-f]{32}$/),
          code: 'misdirected_request',
          message: expect.stringContaining('--allowed-host'),
        },
      ]);
    }
    // The webhook configuration did not change.
    const config = await probe(plain.url, '/_ofkit/webhooks/', { host: `127.0.0.1:${port}`, headers: AUTH });
    expect(config.json.url).toBeNull();
  });

  it('answers localhost, *.localhost and IP literals, any port and any case, without configuration', async () => {
    for (const host of [
      `localhost:${port}`,
      'LOCALHOST',
      `app.localhost:${port}`,
      'localhost.',
      `127.0.0.1:${port}`,
      '10.1.2.3',
      `[::1]:${port}`,
    ])
      expect(await statusWith(plain, host), host).toBe(200);
    for (const host of ['localhost.attacker.example', 'example.com', '127.0.0.1.nip.io'])
      expect(await statusWith(plain, host), host).toBe(421);
  });
});

describe('--allowed-host and --public-url add names; all turns the check off with a warning', () => {
  it('a name, a leading dot for a domain and its subdomains; nothing else', async () => {
    const simulator = await start({ allowedHosts: ['simulator', '.staging.example'] });
    for (const host of ['simulator:4010', 'SIMULATOR', 'staging.example', 'api.staging.example'])
      expect(await statusWith(simulator, host), host).toBe(200);
    for (const host of ['other', 'evilstaging.example', 'staging.example.attacker.example'])
      expect(await statusWith(simulator, host), host).toBe(421);
  });

  it('all answers any Host and says so', async () => {
    const warnings: string[] = [];
    const simulator = await start({ allowedHosts: ['all'], onWarning: (line) => warnings.push(line) });
    expect(await statusWith(simulator, 'anything.example')).toBe(200);
    expect(warnings).toEqual([expect.stringContaining('DNS rebinding')]);
  });
});

describe('PAGE-DEFAULT: next and previous come from an accepted Host or the public URL, never a refused one', () => {
  it('a refused Host gets no link; an accepted one its own; with --public-url, the public URL', async () => {
    const page = '/api/institutions/?page_size=1';
    const refused = await probe(plain.url, page, { host: 'evil.example', headers: AUTH });
    expect(refused.status).toBe(421);
    expect(refused.text).not.toContain('http://evil.example');
    const local = await probe(plain.url, page, { host: `localhost:${port}`, headers: AUTH });
    expect(local.json.next).toMatch(new RegExp(`^http://localhost:${port}/api/institutions/\\?`));
    const proxied = await start({ publicUrl: 'https://sim.example.com/ofkit/' });
    const through = await probe(proxied.url, page, { host: 'sim.example.com', headers: AUTH });
    expect(through.status).toBe(200);
    expect(through.json.next).toMatch(/^https:\/\/sim\.example\.com\/ofkit\/api\/institutions\/\?/);
    expect(await statusWith(proxied, 'other.example.com')).toBe(421);
  });
});

describe('the recording proxy (ofkit record, ofkit proxy) checks Host the same way', () => {
  it('refuses a foreign Host with its own error, forwards a loopback one, and --allowed-host adds a name', async () => {
    const recorder = await startRecorder({ upstream: plain.url, allowedHosts: ['recorder.internal'] });
    try {
      const refused = await probe(recorder.url, '/api/', { host: 'rebind.attacker.example', headers: AUTH });
      expect(refused.status).toBe(421);
      expect(refused.json[0]).toMatchObject({ code: 'proxy_misdirected_request' });
      expect((await probe(recorder.url, '/api/', { host: 'localhost', headers: AUTH })).status).toBe(200);
      expect((await probe(recorder.url, '/api/', { host: 'recorder.internal', headers: AUTH })).status).toBe(
        200,
      );
    } finally {
      await recorder.close();
    }
  });
});
