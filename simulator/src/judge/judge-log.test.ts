/**
 * The judge's log on the request path: an answer never waits for its entry, a store that refuses the
 * log fails no request and is reported once, what the store holds never shows a credential
 * (CLIENT-NO-SECRETS), and a reset starts the log afresh for its readers while the judge keeps what
 * came before it. Every response is checked against the documents.
 */
import { describe, expect, it } from 'vitest';
import { createContractCheck, TEST_KEYS } from '../../test-support/contract-checked-simulator.js';
import type { SimulatorOptions } from '../simulator.js';
import { createSimulator } from '../simulator.js';
import { MemoryStore } from '../store/memory-store.js';
import type { LogBounds } from '../store/store.js';
import { REQUEST_LOG } from './request-log.js';

const KEY = TEST_KEYS[0]!;
const TENANT = KEY.secretId;
const AUTH = `Basic ${Buffer.from(`${KEY.secretId}:${KEY.secretPassword}`).toString('base64')}`;

async function simulatorOn(store: MemoryStore, options: Partial<SimulatorOptions> = {}) {
  const simulator = await createSimulator({
    seed: 'judge-log',
    environment: 'production',
    keys: TEST_KEYS,
    store,
    ...options,
  });
  const check = createContractCheck(simulator.document);
  return async (method: string, pathAndQuery: string, body?: unknown) => {
    const url = new URL(pathAndQuery, 'http://127.0.0.1:4010');
    const response = await simulator.handle({
      method,
      path: url.pathname,
      query: url.searchParams,
      headers: { authorization: AUTH, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? '' : JSON.stringify(body),
      origin: 'http://127.0.0.1:4010',
    });
    check(method, url.pathname, response, url.searchParams);
    return response;
  };
}

/** A memory store whose log appends wait until released, or fail while `refusing`. */
class SlowLogStore extends MemoryStore {
  refusing = false;
  private held: (() => void)[] = [];

  override appendLog(tenant: string, log: string, entry: string, bounds: LogBounds): Promise<number> {
    if (this.refusing) return Promise.reject(new Error('log refused'));
    return new Promise((resolve) => {
      this.held.push(() => resolve(super.appendLog(tenant, log, entry, bounds)));
    });
  }

  release(): void {
    for (const append of this.held.splice(0)) append();
  }
}

describe('the judge log on the request path', () => {
  it('answers before the entry reaches the store; the entry lands when the store takes it', async () => {
    const store = new SlowLogStore();
    const call = await simulatorOn(store);
    expect((await call('GET', '/api/institutions/')).status).toBe(200);
    expect((await store.readLog(TENANT, REQUEST_LOG, 0, 10)).entries).toEqual([]);
    store.release();
    const logged = await call('GET', '/_ofkit/requests/');
    expect(logged.body).toMatchObject({ requests: [{ seq: 1, path: '/api/institutions/' }] });
  });

  it('a store that refuses the log fails no request; reported once, again after a write succeeded', async () => {
    const store = new SlowLogStore();
    const reported: string[] = [];
    const call = await simulatorOn(store, { onJudgeLogError: (error) => reported.push(error.message) });
    store.refusing = true;
    for (let i = 0; i < 3; i += 1) expect((await call('GET', '/api/institutions/')).status).toBe(200);
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toEqual(['client judge: a log write failed, the entry is lost: log refused']);
    store.refusing = false;
    await call('GET', '/api/institutions/');
    store.release();
    await call('GET', '/_ofkit/requests/');
    store.refusing = true;
    await call('GET', '/api/institutions/');
    await new Promise((resolve) => setImmediate(resolve));
    expect(reported).toHaveLength(2);
  });

  it('CLIENT-NO-SECRETS: what the store holds never shows the key id, the secret or the Basic value', async () => {
    const store = new MemoryStore();
    const call = await simulatorOn(store);
    await call('GET', `/api/institutions/?api_secret=${KEY.secretPassword}&id=${KEY.secretId}`);
    await call('GET', `/api/links/${encodeURIComponent(KEY.secretPassword)}/`);
    await call('POST', '/api/links/', {
      institution: 'ofbank_br_retail',
      username: KEY.secretId,
      password: 'institution-password',
      note: AUTH,
    });
    const stored = (await store.readLog(TENANT, REQUEST_LOG, 0, 10)).entries.map((e) => e.entry).join('\n');
    expect(stored).toContain('$OFKIT_SECRET');
    for (const secret of [
      KEY.secretPassword,
      KEY.secretId,
      AUTH.slice('Basic '.length),
      'institution-password',
    ])
      expect(stored).not.toContain(secret);
  });

  it('a reset starts the log afresh for its readers; the judge keeps and judges what came before', async () => {
    const store = new MemoryStore();
    const call = await simulatorOn(store);
    await call('GET', '/api/institutions/');
    await call('GET', '/api/transactions/');
    await call('GET', '/api/transactions/');
    expect((await call('POST', '/_ofkit/reset/')).status).toBe(204);
    await call('GET', '/api/links/');
    const logged = await call('GET', '/_ofkit/requests/');
    expect(logged.body).toMatchObject({ requests: [{ seq: 5, path: '/api/links/' }], dropped: 0 });
    expect((logged.body as { requests: unknown[] }).requests).toHaveLength(1);
    const again = await call('GET', '/_ofkit/requests/?after=5');
    expect(again.body).toEqual({ requests: [], next_after: 5, dropped: 0 });
    const report = (await call('GET', '/_ofkit/judge/')).body as {
      requests: number;
      verdicts: { rule: string; verdict: string; summary: string }[];
    };
    expect(report.requests).toBe(4);
    // The 400 sent twice before the reset stays a violation after it.
    expect(report.verdicts.find((v) => v.rule === 'CLIENT-NO-RETRY-4XX')).toMatchObject({
      verdict: 'violated',
      summary: expect.stringContaining('judged in 2 parts between resets: 1 violated, 1 not exercised'),
    });
  });

  it('a request sent again after a reset is a new case, not a retry', async () => {
    const store = new MemoryStore();
    const call = await simulatorOn(store);
    await call('GET', '/api/transactions/');
    expect((await call('POST', '/_ofkit/reset/')).status).toBe(204);
    expect((await call('POST', '/_ofkit/reset/')).status).toBe(204);
    await call('GET', '/api/transactions/');
    const report = (await call('GET', '/_ofkit/judge/')).body as {
      verdicts: { rule: string; verdict: string; summary: string }[];
    };
    expect(report.verdicts.find((v) => v.rule === 'CLIENT-NO-RETRY-4XX')).toMatchObject({
      verdict: 'followed',
      summary: expect.stringContaining('judged in 2 parts between resets: 2 followed'),
    });
  });
});
