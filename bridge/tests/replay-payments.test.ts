/**
 * `ofkit replay` of payments objects: a payments session recorded (redacted) from a simulator with seed
 * A, replayed into a fresh simulator with seed B, answers every read of the session with the recorded
 * body (the base URL aside), in V1 and V2; then the rules run on the replayed objects: a cancellation,
 * the clock's scheduled charge and the schedule moving on, an authorization's expiry.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { loadBridgeDocument } from '../src/document/bridge-document.js';
import type { Har } from '../src/har/har-types.js';
import { startRecorder } from '../src/recording/recorder.js';
import { describePlan, importPlan, planReplay } from '../src/replay/replay-recordings.js';
import {
  FIRST_CHARGE_DATE,
  PAYMENTS_AT,
  type PaymentsSession,
  paymentsSession,
  V2,
} from '../test-support/payments-session.js';
import { type TrafficClient, trafficClient } from '../test-support/traffic-client.js';

let folder: string;
let har: string;
let seedA: StartedSimulator;
let seedB: StartedSimulator;
let recorded: PaymentsSession;
let client: TrafficClient;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ofkit-replay-payments-'));
  har = join(folder, 'payments.har');
  seedA = await startSimulator({ seed: 'seed-A', tickMs: 0 });
  const recorder = await startRecorder({ upstream: seedA.url, harPath: har, env: {} });
  recorded = await paymentsSession(trafficClient(recorder.url, seedA.keys[0]!));
  await recorder.close();
  seedB = await startSimulator({ seed: 'seed-B', tickMs: 0 });
  client = trafficClient(seedB.url, seedB.keys[0]!);
  const plan = await planReplay({ document: loadBridgeDocument(), files: [har], frozen: true });
  expect(plan.rejected).toEqual([]);
  expect(describePlan(plan, seedB.url).join('\n')).not.toContain('not replayed');
  // The recording's instants are the machine's; the session ran on seed A's frozen virtual clock.
  await importPlan(
    { ...plan, snapshot: { ...plan.snapshot, clock: { now: PAYMENTS_AT, frozen: true } } },
    seedB.url,
    seedB.keys[0]!,
  );
}, 90_000);

afterAll(async () => {
  await seedA?.close();
  await seedB?.close();
  await rm(folder, { recursive: true, force: true });
});

const authorizationPath = (id: string, rest = '') => `/payments/br/payment-authorizations/${id}/${rest}`;
const read = async (path: string) => (await client.call('GET', path, { headers: V2 })).body;

describe('ofkit replay of payments objects', () => {
  it('counts every kind of payments object the session showed', async () => {
    const plan = await planReplay({ document: loadBridgeDocument(), files: [har] });
    expect(Object.fromEntries([...plan.counts].filter(([name]) => name.startsWith('/payments/')))).toEqual({
      '/payments/br/customers/': 3,
      '/payments/br/bank-accounts/': 1,
      '/payments/br/payment-authorizations/': 2,
      '/payments/br/payment-intents/': 2,
      '/payments/br/charges/': 3,
      '/payments/br/transactions/': 1,
      '/payments/br/enrollments/': 1,
    });
  });

  it('answers every read of the session with the recorded body, in both formats', async () => {
    const entries = (JSON.parse(await readFile(har, 'utf8')) as Har).log.entries;
    const lastWrite = entries.findLastIndex((entry) => entry.request.method !== 'GET');
    const reads = entries.slice(lastWrite + 1);
    expect(reads.length).toBe(19);
    for (const entry of reads) {
      const url = new URL(entry.request.url);
      const headers = Object.fromEntries(
        entry.request.headers
          .filter((header) => header.name.toLowerCase() === 'x-service-api-resource-version')
          .map((header) => [header.name, header.value]),
      );
      const answer = await client.call('GET', `${url.pathname}${url.search}`, { headers });
      const where = `${url.pathname} ${JSON.stringify(headers)}`;
      expect(answer.status, where).toBe(entry.response.status);
      expect(JSON.parse(JSON.stringify(answer.body).replaceAll(seedB.url, '<base>')), where).toEqual(
        JSON.parse(entry.response.content.text!.replaceAll(seedA.url, '<base>')),
      );
    }
  });

  it('cancels a replayed AWAITING_AUTHORIZATION authorization (it has no charge to cancel)', async () => {
    const cancelled = await client.call('POST', authorizationPath(recorded.awaiting, 'cancel/'), {
      headers: V2,
    });
    expect(cancelled.status).toBe(204);
    expect(await read(authorizationPath(recorded.awaiting))).toMatchObject({
      status: 'CANCELLED',
      cancelled_at: PAYMENTS_AT,
      authorization_url: null,
    });
    const again = await client.call('POST', authorizationPath(recorded.awaiting, 'cancel/'), { headers: V2 });
    expect(again.status).toBe(400);
  });

  it('the clock processes the replayed scheduled charge on its date and the schedule moves on', async () => {
    const before = await read(authorizationPath(recorded.confirmed, 'charges/'));
    expect(before.results).toEqual([
      expect.objectContaining({ status: 'SCHEDULED', date: FIRST_CHARGE_DATE }),
    ]);
    // 06:00 GMT-3 of the charge date is 8 days and 21 hours after the session's 09:00 GMT-3.
    const advanced = await client.call('POST', '/_ofkit/clock/advance/', {
      body: { seconds: 8 * 86_400 + 22 * 3600 },
    });
    expect(advanced.status).toBe(200);
    const after = (await read(authorizationPath(recorded.confirmed, 'charges/'))).results;
    expect(after.map((charge: { status: string; date: string }) => [charge.date, charge.status])).toEqual([
      [FIRST_CHARGE_DATE, 'SUCCEEDED'],
      ['2026-12-10', 'SCHEDULED'],
    ]);
    expect(await read(authorizationPath(recorded.confirmed))).toMatchObject({
      status: 'AUTHORIZED',
      next_charge_date: '2026-12-10',
    });
    const intent = (await client.call('GET', `/payments/br/payment-intents/${recorded.scheduledIntent}/`))
      .body;
    expect(intent.status).toBe('SCHEDULED');
  });

  it('cancels the replayed scheduled intent with its charge before the cutoff (the intent knows its charge)', async () => {
    const intentPath = `/payments/br/payment-intents/${recorded.scheduledIntent}/`;
    expect((await client.call('POST', `${intentPath}cancel/`)).status).toBe(204);
    expect((await client.call('GET', intentPath)).body.status).toBe('CANCELLED');
    const charges = (await client.call('GET', `${intentPath}charges/`)).body.results;
    expect(charges).toEqual([expect.objectContaining({ status: 'CANCELLED', date: '2026-11-20' })]);
  });
});
