/**
 * SSRF: a tenant of a simulator listening beyond loopback must not make it call the internal network
 * (with the tenant's bearer token) nor read the event log as a port scanner. Such a simulator refuses
 * webhook destinations in loopback, link-local, private and unique-local addresses unless
 * `--webhook-allow` names them: 400 when configured, refused again at delivery (the address connected
 * to, after its one lookup), the judge's probes alike; the event log says outcomes coarsely; no
 * redirect is followed. A simulator on loopback delivers anywhere (local development). The simulator
 * is assembled in process with the rules its listening interface gives; the interface's part is the
 * start-up refusal below.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { simulateCommand } from '../../scripts/cli/simulate.js';
import { createSimulator, type Simulator } from '../../simulator/src/simulator.js';
import {
  contractCheckedExchange,
  FIXED_NOW,
  TEST_KEYS,
} from '../../simulator/test-support/contract-checked-simulator.js';
import { startReceiver, type TestReceiver } from '../../simulator/test-support/test-receiver.js';

const KEY = TEST_KEYS[0]!;
const AUTH = `Basic ${Buffer.from(`${KEY.secretId}:${KEY.secretPassword}`).toString('base64')}`;
const opened: { close(): Promise<void> }[] = [];
const violations: string[] = [];
afterAll(async () => {
  for (const thing of opened) await thing.close();
  expect(violations).toEqual([]);
});

async function simulator(restricted: boolean, allow: string[] = [], webhook?: string): Promise<Simulator> {
  const simulator = await createSimulator({
    seed: 'destinations',
    environment: 'production',
    keys: TEST_KEYS,
    realTime: () => FIXED_NOW,
    webhookDestinations: { restricted, allow },
    ...(webhook && { webhook: { url: webhook, bearer_token: 'tenant-bearer' } }),
    onExchange: contractCheckedExchange(violations),
  });
  opened.push({ close: () => simulator.webhooks.close() });
  return simulator;
}

const call = async (sim: Simulator, method: string, path: string, body?: unknown) => {
  const answer = await sim.handle({
    method,
    path,
    query: new URLSearchParams(),
    headers: { authorization: AUTH, ...(body !== undefined && { 'content-type': 'application/json' }) },
    body: body === undefined ? '' : JSON.stringify(body),
    origin: 'http://127.0.0.1:4010',
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read the members they check
  return answer as { status: number; body: any };
};

async function receiver(): Promise<TestReceiver> {
  const started = await startReceiver();
  opened.push(started);
  return started;
}

/** Registers a recurrent link (its historical events are delivered) and waits for the deliveries. */
async function deliveries(sim: Simulator) {
  const link = {
    institution: 'ofbank_br_retail',
    username: '76109277673',
    password: 'p',
    access_mode: 'recurrent',
  };
  expect((await call(sim, 'POST', '/api/links/', link)).status).toBe(201);
  await call(sim, 'POST', '/_ofkit/clock/advance/', { seconds: 86_400 });
  await sim.webhooks.idle();
  return (await call(sim, 'GET', '/_ofkit/events/')).body as {
    attempts: { status: number | null; error: string | null }[];
  }[];
}

describe('beyond loopback, internal destinations are refused unless --webhook-allow names them', () => {
  it('400 at configuration, naming the flag: loopback, link-local (cloud metadata), private, unique-local, names that resolve there', async () => {
    const sim = await simulator(true);
    for (const url of [
      'http://127.0.0.1:8080/hooks',
      'http://localhost:8080/hooks',
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.5/hooks',
      'http://192.168.1.10/hooks',
      'http://[::1]:8080/hooks',
      'http://[fd00::5]/hooks',
      'http://0.0.0.0:8080/hooks',
    ]) {
      const answer = await call(sim, 'PUT', '/_ofkit/webhooks/', { url });
      expect(answer.status, url).toBe(400);
      expect(answer.body[0]).toMatchObject({ code: 'invalid', field: 'url' });
      expect(answer.body[0].message).toContain('--webhook-allow');
    }
    expect(
      (await call(sim, 'PUT', '/_ofkit/webhooks/', { url: 'https://hooks.example.com/in' })).status,
    ).toBe(200);
  });

  it('refused again at delivery (a name that resolves to loopback), the bearer never sent; the log says only "refused"', async () => {
    const hooks = await receiver();
    const named = hooks.url.replace('127.0.0.1', 'localhost');
    const sim = await simulator(true, [], named);
    const events = await deliveries(sim);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events)
      for (const attempt of event.attempts) expect(attempt.error).toMatch(/^refused: .*--webhook-allow/);
    expect(hooks.received).toEqual([]);
  });

  it('the judge probes go through the same check', async () => {
    const hooks = await receiver();
    const sim = await simulator(true, [], hooks.url.replace('127.0.0.1', 'localhost'));
    const probe = await call(sim, 'POST', '/_ofkit/judge/probes/', { probe: 'forged_delivery' });
    expect(probe.status).toBe(201);
    expect(probe.body.error).toMatch(/^refused: /);
    expect(hooks.received).toEqual([]);
  });

  it('--webhook-allow by host name or by CIDR delivers there', async () => {
    for (const allow of ['localhost', '127.0.0.0/8']) {
      const hooks = await receiver();
      const sim = await simulator(true, [allow], hooks.url.replace('127.0.0.1', 'localhost'));
      const events = await deliveries(sim);
      expect(
        events.every((event) => event.attempts[0]?.status === 200),
        allow,
      ).toBe(true);
      expect(hooks.received.length).toBe(events.length);
      expect(hooks.received[0]?.headers.authorization).toBe('Bearer tenant-bearer');
    }
  });
});

describe('on loopback a simulator delivers anywhere, follows no redirect, and logs coarsely', () => {
  let redirecting: Server | undefined;
  afterEach(() => new Promise<void>((done) => (redirecting ? redirecting.close(() => done()) : done())));

  it('a receiver on loopback gets the deliveries; a closed port reads "no answer", never the socket error', async () => {
    const hooks = await receiver();
    const sim = await simulator(false);
    expect((await call(sim, 'PUT', '/_ofkit/webhooks/', { url: hooks.url })).status).toBe(200);
    const events = await deliveries(sim);
    expect(hooks.received.length).toBe(events.length);
    const closed = await startReceiver();
    await closed.close();
    expect((await call(sim, 'PUT', '/_ofkit/webhooks/', { url: closed.url })).status).toBe(200);
    const after = await deliveries(sim);
    const last = after.at(-1)!.attempts.at(-1)!;
    expect(last).toMatchObject({ status: null, error: 'no answer (the connection failed or closed)' });
    expect(JSON.stringify(after)).not.toMatch(/ECONNREFUSED|connect |socket/i);
  });

  it('a 307 to another address is an answer, not followed', async () => {
    const hooks = await receiver();
    redirecting = createServer((_request, response) => {
      response.writeHead(307, { location: hooks.url });
      response.end();
    });
    await new Promise<void>((ready) => redirecting!.listen(0, '127.0.0.1', ready));
    const { port } = redirecting.address() as AddressInfo;
    const sim = await simulator(false);
    await call(sim, 'PUT', '/_ofkit/webhooks/', { url: `http://127.0.0.1:${port}/hooks` });
    const events = await deliveries(sim);
    expect(events[0]?.attempts[0]?.status).toBe(307);
    expect(hooks.received).toEqual([]);
  });
});

describe('ofkit simulate refuses a default receiver it may not call, before it listens', () => {
  afterEach(() => vi.restoreAllMocks());

  it('beyond loopback, --webhook-url to loopback: one line naming --webhook-allow, exit 2', async () => {
    const errors: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)));
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const argv = [
      '--host',
      '192.0.2.1',
      '--port',
      '0',
      '--keys',
      'team:s3cret',
      '--webhook-url',
      'http://127.0.0.1:9/hooks',
    ];
    expect(await simulateCommand(argv)).toBe(2);
    expect(errors).toEqual([expect.stringMatching(/--webhook-url .*--webhook-allow/)]);
  });
});
