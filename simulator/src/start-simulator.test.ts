import { createServer } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readBundledDocument } from '../../openapi/document/bundled-documents.js';
import {
  checkAgainstDocument,
  documentChecker,
  FIXED_NOW,
} from '../test-support/contract-checked-simulator.js';
import { standInForExec } from '../test-support/exec-stand-in.js';
import { connectSimulator, SimulatorAttachError } from './connect-simulator.js';
import type { SimResponse } from './core/http-types.js';
import { type StartedSimulator, startSimulator } from './start-simulator.js';

const started: StartedSimulator[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(started.splice(0).map((simulator) => simulator.close()));
});

async function start(options: Parameters<typeof startSimulator>[0] = {}) {
  const simulator = await startSimulator({ realTime: () => FIXED_NOW, ...options });
  started.push(simulator);
  return simulator;
}

/** GET over HTTP, the answer checked against the API's document or the control API's. */
async function checkedFetch(simulator: StartedSimulator, path: string, init: RequestInit = {}) {
  const key = simulator.keys[0]!;
  const authorization = `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`;
  const response = await fetch(`${simulator.url}${path}`, { ...init, headers: { authorization } });
  const text = await response.text();
  const answer: SimResponse = {
    status: response.status,
    headers: {},
    ...(text === '' ? {} : { body: JSON.parse(text) }),
  };
  const document = path.startsWith('/_ofkit/') ? readBundledDocument('admin') : simulator.simulator.document;
  checkAgainstDocument(documentChecker(document), init.method ?? 'GET', path, answer);
  return answer;
}

describe('startSimulator', () => {
  it('listens on 127.0.0.1 and a free port, with the keys of its environment', async () => {
    const simulator = await start({ environment: 'sandbox' });
    expect(simulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(simulator.keys.map((key) => key.environment)).toEqual(['sandbox']);
    expect((await checkedFetch(simulator, '/api/institutions/')).status).toBe(200);
  });

  it('gives the control API: its URL, a reset and a clock move as the first key', async () => {
    const simulator = await start();
    expect(simulator.control.url).toBe(`${simulator.url}/_ofkit/`);
    const before = await checkedFetch(simulator, '/_ofkit/clock/');
    const moved = await simulator.control.advanceClock(600);
    expect(Date.parse(moved.now) - Date.parse((before.body as { now: string }).now)).toBe(600_000);
    await expect(simulator.control.reset()).resolves.toBeUndefined();
    await expect(simulator.control.request('POST', 'clock/advance/', { seconds: -1 })).rejects.toThrow(
      /answered 400/,
    );
  });

  it('stops answering once closed; close twice is harmless', async () => {
    const simulator = await start();
    await simulator.close();
    await simulator.close();
    await expect(fetch(`${simulator.url}/api/`)).rejects.toThrow();
  });

  it('rejects with EADDRINUSE on a busy port', async () => {
    const busy = createServer();
    await new Promise<void>((done) => busy.listen(0, '127.0.0.1', done));
    const port = (busy.address() as { port: number }).port;
    await expect(startSimulator({ port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    busy.close();
  });
});

describe('the judge and the control API of a started simulator', () => {
  it('judge() gives the report of the first key; control.request takes paths with or without /_ofkit/', async () => {
    const simulator = await start();
    const key = simulator.keys[0]!;
    const authorization = `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`;
    await fetch(`${simulator.url}/api/institutions/`, { headers: { authorization } });
    const report = await simulator.judge();
    expect(report).toMatchObject({ tenant: key.secretId, timing: 'real', requests: 1 });
    expect((await simulator.judge({ timing: 'order-only' })).timing).toBe('order-only');
    for (const path of ['judge/', '/_ofkit/judge/', '_ofkit/judge/'])
      expect(await simulator.control.request('GET', path)).toMatchObject({ requests: 1 });
  });
});

describe('attaching to the simulator of ofkit exec', () => {
  /** A simulator standing for exec's, closed after the test. */
  async function underExec(environment: 'production' | 'sandbox' = 'production') {
    const exec = await standInForExec(environment);
    started.push(exec);
    return exec;
  }

  it("connectSimulator() and startSimulator({ attach: true }) reach exec's simulator, whose judge sees them", async () => {
    const exec = await underExec();
    const connected = await connectSimulator();
    const attached = await startSimulator({ attach: true, seed: 'exec-seed', environment: 'production' });
    for (const handle of [connected, attached]) {
      expect(handle).toMatchObject({ url: exec.url, seed: 'exec-seed', environment: 'production' });
      expect('simulator' in handle).toBe(false);
      await handle.control.advanceClock(60);
      await handle.close(); // exec's simulator stays up: exec stops it
    }
    const key = connected.keys[0]!;
    const authorization = `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`;
    expect((await fetch(`${exec.url}/api/`, { headers: { authorization } })).status).toBe(200);
    expect((await connected.judge()).requests).toBe(1);
    expect((await exec.judge()).requests).toBe(1);
  });

  it.each([
    [{ environment: 'sandbox' as const }, "environment sandbox, but ofkit exec's simulator .* is production"],
    [{ seed: 'other' }, 'seed other, but .* has seed exec-seed: ofkit exec --seed other'],
    [{ realTime: () => 0, tickMs: 0 }, 'realTime, tickMs cannot apply to'],
    [{ port: 1 }, '127.0.0.1:1, but .* listens on'],
  ])("an option exec's simulator cannot honour is one line: %o", async (options, message) => {
    await underExec();
    const attaching = startSimulator({ attach: true, ...options });
    await expect(attaching).rejects.toThrow(SimulatorAttachError);
    await expect(attaching).rejects.toThrow(
      new RegExp(`^startSimulator\\(\\{ attach: true \\}\\): ${message}`),
    );
    await expect(attaching).rejects.not.toThrow(/\n/);
  });

  it('outside ofkit exec: connectSimulator() says how to run under it; attach starts a simulator of its own', async () => {
    vi.stubEnv('OFKIT_URL', '');
    await expect(connectSimulator()).rejects.toThrow(
      /^connectSimulator\(\): OFKIT_URL, .*npx ofkit exec -- <command>/,
    );
    const own = await startSimulator({ attach: true, realTime: () => FIXED_NOW });
    started.push(own as StartedSimulator);
    expect('simulator' in own).toBe(true);
  });
});
