import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { readBundledDocument } from '../../openapi/document/bundled-documents.js';
import {
  checkAgainstDocument,
  documentChecker,
  FIXED_NOW,
} from '../test-support/contract-checked-simulator.js';
import type { SimResponse } from './core/http-types.js';
import { type StartedSimulator, startSimulator } from './start-simulator.js';

const started: StartedSimulator[] = [];
afterEach(async () => {
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
