/**
 * a seeded, bounded fuzz over every operation of the API document and the control API, and
 * raw malformed HTTP, through the real node:http adapter. Fails on any 5xx (an injected fault's aside),
 * any 4xx without the error array, any answer that breaks the document, any crash, and any change to
 * tenant-b, which the fuzz never authenticates as. Replay: FUZZ_SEED=<seed> npx vitest run tests/hardening
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexOperations } from '../../openapi/document/operation-index.js';
import { createRandom } from '../../simulator/src/ids/seeded-ids.js';
import type { Simulator } from '../../simulator/src/simulator.js';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import {
  contractCheckedExchange,
  FIXED_NOW,
  TEST_KEYS,
} from '../../simulator/test-support/contract-checked-simulator.js';
import { type FuzzRequest, requestsFor } from './fuzz-requests.js';
import { RAW_CASES, sendRaw } from './raw-http.js';
import { ADMIN, exportText, inProcess, isErrorArray } from './tenant-calls.js';

const SEED = process.env.FUZZ_SEED ?? 'issue-12';
const AUTH_A = `Basic ${Buffer.from('tenant-a:secret-a').toString('base64')}`;

/** What a HEAD error stands for: its body, were it not HEAD, is the error array (the GET's is checked). */
const HEAD_ERROR = '[{"request_id":"","message":"","code":""}]';

let simulator: Simulator;
let started: StartedSimulator;
let base: string;
let port: number;
const violations: string[] = [];
const statuses = new Map<number, number>();
const findings: string[] = [];

function tally(what: string, status: number, body: string): void {
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  const injected = status >= 500 && body.includes('Injected');
  if (status >= 500 && !injected) findings.push(`${what} -> ${status} ${body.slice(0, 200)}`);
  if (status >= 400 && !isErrorArray(body))
    findings.push(`${what} -> ${status} without the error array: ${body.slice(0, 200)}`);
}

beforeAll(async () => {
  console.log(`fuzz seed: ${SEED} (replay with FUZZ_SEED=${SEED})`);
  started = await startSimulator({
    seed: SEED,
    environment: 'production',
    keys: TEST_KEYS,
    realTime: () => FIXED_NOW,
    tickMs: 0,
    onExchange: contractCheckedExchange(violations),
  });
  ({ simulator, url: base } = started);
  port = Number(new URL(base).port);
}, 120_000);
afterAll(() => started.close());

async function send(request: FuzzRequest): Promise<void> {
  const response = await fetch(`${base}${request.target}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  }).catch((error: Error) => ({ status: 0, text: async () => `fetch failed: ${error.message}` }));
  const body = await response.text();
  if (response.status === 0)
    findings.push(`${request.method} ${request.target.slice(0, 80)} (${request.category}): ${body}`);
  // RFC 9110 9.3.2: an answer to HEAD has no body, errors included.
  else if (request.method === 'HEAD')
    tally('HEAD', response.status, response.status >= 400 ? HEAD_ERROR : '');
  else tally(`${request.method} ${request.target.slice(0, 80)} (${request.category})`, response.status, body);
}

describe('fuzzing every operation never gets a 5xx, a bare 4xx or a change to another tenant', () => {
  it('over every operation of both documents, and raw malformed HTTP', async () => {
    const random = createRandom(`fuzz/${SEED}`);
    const a = inProcess(simulator, 'tenant-a:secret-a');
    const b = inProcess(simulator, 'tenant-b:secret-b');
    const link = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
    // tenant-b: something to lose, and a frozen clock so that its export is a fixed text.
    await b('POST', '/api/links/', link);
    await b('PUT', '/_ofkit/clock/', { now: '2026-11-02T12:00:00.000Z', frozen: true });
    const before = await exportText(simulator, 'tenant-b:secret-b');
    const knownIds = [String((await a('POST', '/api/links/', link)).body.id)];
    const operations = [...indexOperations(simulator.document).values(), ...indexOperations(ADMIN).values()];
    const context = { document: simulator.document, random, auth: AUTH_A, knownIds };
    let requests = 0;
    for (const operation of operations) {
      const context2 = {
        ...context,
        document: operation.path.startsWith('/_ofkit/') ? ADMIN : simulator.document,
      };
      for (const request of requestsFor(context2, operation)) {
        await send(request);
        requests += 1;
      }
    }
    for (const [what, payload] of RAW_CASES) {
      const answer = await sendRaw(port, payload);
      requests += 1;
      if (answer === undefined) findings.push(`raw ${what}: no answer`);
      else tally(`raw ${what}`, answer.status, answer.body);
    }
    const after = await exportText(simulator, 'tenant-b:secret-b');
    const histogram = [...statuses]
      .sort(([x], [y]) => x - y)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    console.log(`fuzz: ${requests} requests over ${operations.length} operations; statuses ${histogram}`);
    expect(findings).toEqual([]);
    expect(violations).toEqual([]);
    expect(after).toBe(before);
    // Still serving.
    expect((await fetch(`${base}/api/`, { headers: { authorization: AUTH_A } })).status).toBe(200);
  }, 180_000);
});
