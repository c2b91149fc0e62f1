/**
 * `--no-judge` (`judge: false`): the observer is not there at all, so nothing is logged, and the control
 * API's judge operations answer 409 `judge_off` (admin.yaml) rather than an empty log or verdict. Every
 * response is checked against the documents.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../openapi/config/config-error.js';
import { contractCheckedExchange, TEST_KEYS } from '../../test-support/contract-checked-simulator.js';
import { parseSimulatorConfig } from '../config/simulator-config.js';
import { createSimulator } from '../simulator.js';
import { type StartedSimulator, startSimulator } from '../start-simulator.js';
import { MemoryStore } from '../store/memory-store.js';
import { finishJudge } from './judge-cli.js';
import { DELIVERY_LOG, REQUEST_LOG } from './request-log.js';

const KEY = TEST_KEYS[0]!;
const AUTH = `Basic ${Buffer.from(`${KEY.secretId}:${KEY.secretPassword}`).toString('base64')}`;

let started: StartedSimulator;
const store = new MemoryStore();
/** The webhook receiver: the deliveries it got (so the test knows deliveries were made, unlogged). */
const delivered: unknown[] = [];
const receiver = createServer(async (request, response) => {
  let text = '';
  for await (const chunk of request) text += chunk;
  delivered.push(JSON.parse(text));
  response.writeHead(200).end();
});
beforeAll(async () => {
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  started = await startSimulator({
    keys: TEST_KEYS,
    store,
    judge: false,
    tickMs: 0,
    webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`, bearer_token: null },
    onExchange: contractCheckedExchange(),
  });
}, 60_000);
afterAll(async () => {
  await started.close();
  receiver.closeAllConnections();
  await new Promise((done) => receiver.close(done));
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${started.url}${path}`, {
    method,
    headers: { authorization: AUTH, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

describe('the simulator without the judge (--no-judge)', () => {
  it('serves the API and logs nothing', async () => {
    expect((await call('GET', '/api/institutions/')).status).toBe(200);
    expect((await call('GET', '/api/transactions/')).status).toBe(400);
    expect(await store.readLog(KEY.secretId, REQUEST_LOG, 0, 100)).toEqual({ entries: [], dropped: 0 });
    expect(await store.readLog(KEY.secretId, DELIVERY_LOG, 0, 100)).toEqual({ entries: [], dropped: 0 });
    expect(started.simulator.judge).toBeNull();
  });

  it('delivers webhooks and logs none of them', async () => {
    const registration = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
    const registered = await call('POST', '/api/links/', registration);
    expect(registered.status).toBe(201);
    // A refresh raises the link's update events.
    const { id } = registered.body as { id: string };
    expect((await call('POST', `/api/links/${id}/refresh/`)).status).toBe(202);
    expect((await call('POST', '/_ofkit/clock/advance/', { seconds: 600 })).status).toBe(200);
    await started.simulator.webhooks.idle();
    expect(delivered.length).toBeGreaterThan(0);
    expect(await store.readLog(KEY.secretId, DELIVERY_LOG, 0, 100)).toEqual({ entries: [], dropped: 0 });
    expect(await store.readLog(KEY.secretId, REQUEST_LOG, 0, 100)).toEqual({ entries: [], dropped: 0 });
  });

  it.each([
    ['GET', '/_ofkit/judge/', undefined],
    ['GET', '/_ofkit/requests/', undefined],
    ['POST', '/_ofkit/judge/probes/', { probe: 'forged_delivery' }],
  ])('%s %s answers 409 judge_off', async (method, path, body) => {
    const answer = await call(method, path, body);
    expect(answer.status).toBe(409);
    expect(answer.body).toEqual([
      expect.objectContaining({ code: 'judge_off', message: expect.stringContaining('--no-judge') }),
    ]);
  });

  it('at shutdown says the judge is off, and judges nothing', async () => {
    const outcome = await finishJudge(started.simulator, parseSimulatorConfig([]).judge);
    expect(outcome).toEqual({
      reports: [],
      summary: 'client judge: off (--no-judge)',
      exitCode: 0,
      written: [],
    });
  });
});

describe('--no-judge on the command line', () => {
  it('turns the judge off; the judge is on by default', () => {
    expect(parseSimulatorConfig(['--no-judge']).judgeEnabled).toBe(false);
    expect(parseSimulatorConfig([]).judgeEnabled).toBe(true);
    expect(parseSimulatorConfig(['--no-judge', '--fault', 'listAccounts:500']).judgeEnabled).toBe(false);
  });

  it('refuses what needs the judge beside it, naming both flags', () => {
    for (const flags of [
      ['--judge-report', 'json:out.json'],
      ['--judge-timing', 'order-only'],
      ['--webhook-duplicates'],
    ]) {
      expect(() => parseSimulatorConfig(['--no-judge', ...flags])).toThrow(ConfigError);
      expect(() => parseSimulatorConfig(['--no-judge', ...flags])).toThrow(
        new RegExp(`--no-judge .*${flags[0]}`),
      );
    }
  });

  it('createSimulator refuses the judge probes without the judge', async () => {
    await expect(
      createSimulator({
        seed: 's',
        environment: 'production',
        keys: TEST_KEYS,
        judge: false,
        judgeProbes: { duplicates: true },
      }),
    ).rejects.toThrow(/judgeProbes need the judge/);
  });
});
