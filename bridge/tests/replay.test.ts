/**
 * `ofkit replay`: a session recorded (redacted, by default) from a simulator with seed A, replayed into
 * a fresh simulator with seed B through its control API, answers every GET the session made after its
 * last write with the recorded body (the base URL aside); replaying twice gives the same state; a
 * recording of two keys asks which one.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { replay } from '../../scripts/cli/replay.js';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { loadBridgeDocument } from '../src/document/bridge-document.js';
import type { Har } from '../src/har/har-types.js';
import { startRecorder } from '../src/recording/recorder.js';
import { importPlan, planReplay } from '../src/replay/replay-recordings.js';
import { BANK, LAST_MONTH, register } from '../test-support/sample-traffic.js';
import { type TrafficClient, trafficClient } from '../test-support/traffic-client.js';

let folder: string;
let har: string;
let seedA: StartedSimulator;

/** Writes first (links, retrievals, a deletion), then reads every kind of answer. */
async function session(client: TrafficClient): Promise<void> {
  const call = client.call;
  const bank = await register(call, BANK);
  await call('POST', '/api/accounts/', { body: { link: bank } });
  await call('POST', '/api/owners/', { body: { link: bank } });
  await call('POST', '/api/transactions/', { body: { link: bank, ...LAST_MONTH } });
  const fiscal = await register(call, {
    institution: 'ofsat_mx_fiscal',
    username: 'GOMA850315AB1',
    password: 'ciec-pass',
  });
  await call('POST', '/api/invoices/', { body: { link: fiscal, ...LAST_MONTH, type: 'INFLOW' } });
  const gone = await register(call, BANK);
  await call('DELETE', `/api/links/${gone}/`);
  await call('GET', '/api/links/');
  await call('GET', `/api/links/${bank}/`);
  const accounts = await call('GET', `/api/accounts/?link=${bank}`);
  await call('GET', `/api/accounts/${accounts.body.results[0].id}/`);
  await call('GET', `/api/owners/?link=${bank}`);
  const page = await call('GET', `/api/transactions/?link=${bank}&page_size=10`);
  await call('GET', new URL(page.body.next).pathname + new URL(page.body.next).search);
  await call('GET', `/api/transactions/?link=${bank}&page_size=1000&type=INFLOW`);
  await call('GET', `/api/invoices/?link=${fiscal}`);
  await call(
    'GET',
    `/api/invoices/${(await call('GET', `/api/invoices/?link=${fiscal}`)).body.results[0].id}/`,
  );
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ofkit-replay-'));
  har = join(folder, 'session.har');
  seedA = await startSimulator({ seed: 'seed-A', tickMs: 0 });
  const recorder = await startRecorder({ upstream: seedA.url, harPath: har, env: {} });
  await session(trafficClient(recorder.url, seedA.keys[0]!));
  await recorder.close();
}, 60_000);

afterAll(async () => {
  await seedA.close();
  await rm(folder, { recursive: true, force: true });
});

const basic = (key: { secretId: string; secretPassword: string }) =>
  `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`;

describe('ofkit replay', () => {
  it('a fresh simulator with another seed answers the recorded GETs with the recorded bodies', {
    timeout: 30_000,
  }, async () => {
    const seedB = await startSimulator({ seed: 'seed-B', tickMs: 0 });
    try {
      const plan = await planReplay({ document: loadBridgeDocument(), files: [har] });
      expect(plan.rejected).toEqual([]);
      expect(plan.counts.get('/api/links/')).toBe(2);
      await importPlan(plan, seedB.url, seedB.keys[0]!);
      const entries = (JSON.parse(await readFile(har, 'utf8')) as Har).log.entries;
      const lastWrite = entries.findLastIndex((entry) => entry.request.method !== 'GET');
      const reads = entries.slice(lastWrite + 1);
      expect(reads.length).toBeGreaterThanOrEqual(10);
      for (const entry of reads) {
        const url = new URL(entry.request.url);
        const answer = await fetch(`${seedB.url}${url.pathname}${url.search}`, {
          headers: { authorization: basic(seedB.keys[0]!) },
        });
        const replayed = (await answer.text()).replaceAll(seedB.url, '<base>');
        expect({ path: url.pathname, status: answer.status }).toEqual({
          path: url.pathname,
          status: entry.response.status,
        });
        expect(JSON.parse(replayed), url.pathname + url.search).toEqual(
          JSON.parse(entry.response.content.text!.replaceAll(seedA.url, '<base>')),
        );
      }
    } finally {
      await seedB.close();
    }
  });

  it('replaying the same recording twice gives the same state (ofkit replay --target)', {
    timeout: 30_000,
  }, async () => {
    const target = await startSimulator({ seed: 'seed-C', tickMs: 0 });
    const lines: string[] = [];
    const snapshot = async () => {
      const answer = await fetch(`${target.url}/_ofkit/snapshot/`, {
        headers: { authorization: basic(target.keys[0]!) },
      });
      return ((await answer.json()) as { state: unknown }).state;
    };
    try {
      expect(await replay([har, '--target', target.url], { print: (line) => lines.push(line) })).toBe(0);
      const first = await snapshot();
      expect(await replay([har, '--target', target.url], { print: (line) => lines.push(line) })).toBe(0);
      expect(await snapshot()).toEqual(first);
      expect(lines[0]).toMatch(/^replayed \d+ records of key \S+ into http/);
    } finally {
      await target.close();
    }
  });

  it('without --target it serves a simulator of its own with the records', { timeout: 30_000 }, async () => {
    const stop = new AbortController();
    let url = '';
    const lines: string[] = [];
    const exit = replay([har, '--port', '0', '--keys', 'team-key:team-secret'], {
      signal: stop.signal,
      print: (line) => lines.push(line),
      onListening: (listening) => {
        url = listening;
        stop.abort();
      },
    });
    expect(await exit).toBe(0);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(lines.join('\n')).toContain('into tenant team-key');
  });

  it('asks which key when the recording holds the records of two', async () => {
    const two = join(folder, 'two.har');
    const recorder = await startRecorder({ upstream: seedA.url, harPath: two, env: {} });
    for (const key of seedA.keys.slice(0, 2)) await register(trafficClient(recorder.url, key).call, BANK);
    await recorder.close();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await replay([two, '--target', seedA.url], { print: () => undefined })).toBe(2);
    expect(String(errors.mock.calls[0]?.[0])).toMatch(/records of 2 keys .* choose one with --source-key/);
    errors.mockRestore();
  });

  it('refuses a recording without one record: nothing to replay, exit 2 (never an empty tenant)', async () => {
    const empty = join(folder, 'no-records.har');
    const recorder = await startRecorder({ upstream: seedA.url, harPath: empty, env: {} });
    await trafficClient(recorder.url, seedA.keys[0]!).call('GET', '/api/');
    await recorder.close();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await replay([empty, '--target', seedA.url], { print: () => undefined })).toBe(2);
      expect(String(errors.mock.calls[0]?.[0])).toMatch(
        /^ofkit replay: no record of the API in .*no-records\.har \(entries read: 1\): nothing to replay$/,
      );
    } finally {
      errors.mockRestore();
    }
  });
});
