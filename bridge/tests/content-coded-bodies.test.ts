/**
 * Compressed bodies through `ofkit record`: an implementation that compresses its answers although the
 * proxy asked for identity (a server behind a CDN does), and a client that compresses what it sends.
 * The client gets the bytes as they came; the recording holds each body decoded, checked and redacted
 * (no credential or personal value in it, compressed or not), and a body in a coding the bridge cannot
 * undo is left out, never kept as bytes nobody redacted.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import type { Har } from '../src/har/har-types.js';
import { startRecorder } from '../src/recording/recorder.js';
import type { DriftReport } from '../src/report/drift-report.js';

/** How the front server codes its answer, as the test asks it (a header the simulator never sees). */
const CODING_HEADER = 'x-test-answer-coding';
const USERNAME = '76109277673';
const PASSWORD = 'bank-pass-7391';

let folder: string;
let simulator: StartedSimulator;
let front: Server;
let report: DriftReport;
let har: Har;
let harText: string;
const answers: { path: string; coding: string | undefined; bytes: Buffer }[] = [];
let owners: Record<string, unknown>[] = [];

/** The implementation: the simulator behind a server that undoes gzip requests and codes its answers. */
async function startFront(upstream: string): Promise<Server> {
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const sent = Buffer.concat(chunks);
      const body = incoming.headers['content-encoding'] === 'gzip' ? gunzipSync(sent) : sent;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers))
        if (
          typeof value === 'string' &&
          !['host', 'content-length', 'content-encoding', CODING_HEADER].includes(name)
        )
          headers[name] = value;
      const answer = await request(`${upstream}${incoming.url}`, {
        method: incoming.method as 'GET',
        headers,
        ...(body.length > 0 && { body }),
      });
      const plain = Buffer.from(await answer.body.arrayBuffer());
      const coding = incoming.headers[CODING_HEADER] as string | undefined;
      const out = coding === 'gzip' ? gzipSync(plain) : coding === 'br' ? brotliCompressSync(plain) : plain;
      response.writeHead(answer.statusCode, {
        'content-type': String(answer.headers['content-type'] ?? 'application/json'),
        ...(coding && { 'content-encoding': coding }),
      });
      response.end(out);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ofkit-coded-'));
  simulator = await startSimulator({ seed: 'coded', tickMs: 0 });
  front = await startFront(simulator.url);
  const recorder = await startRecorder({
    upstream: `http://127.0.0.1:${(front.address() as AddressInfo).port}`,
    harPath: join(folder, 'session.har'),
    env: {},
  });
  const key = simulator.keys[0]!;
  const authorization = `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`;
  const call = async (method: string, path: string, coding?: string, json?: unknown) => {
    const answer = await request(`${recorder.url}${path}`, {
      method: method as 'GET',
      headers: {
        authorization,
        ...(coding && { [CODING_HEADER]: coding }),
        ...(json !== undefined && { 'content-type': 'application/json', 'content-encoding': 'gzip' }),
      },
      ...(json !== undefined && { body: gzipSync(JSON.stringify(json)) }),
    });
    const bytes = Buffer.from(await answer.body.arrayBuffer());
    answers.push({ path, coding: answer.headers['content-encoding'] as string | undefined, bytes });
    return bytes;
  };
  const registered = await call('POST', '/api/links/', 'gzip', {
    institution: 'ofbank_br_retail',
    username: USERNAME,
    password: PASSWORD,
    access_mode: 'single',
  });
  const link = (JSON.parse(gunzipSync(registered).toString('utf8')) as { id: string }).id;
  // Refused (no body): an error array coded br.
  await call('POST', '/api/owners/', 'br');
  await call('POST', '/api/owners/', 'gzip', { link });
  owners = JSON.parse(
    gunzipSync(await call('GET', `/api/owners/?link=${link}`, 'gzip')).toString('utf8'),
  ).results;
  await call('GET', `/api/owners/?link=${link}`, 'zstd');
  report = await recorder.close();
  harText = await readFile(join(folder, 'session.har'), 'utf8');
  har = JSON.parse(harText) as Har;
}, 60_000);

afterAll(async () => {
  front?.closeAllConnections();
  front?.close();
  await simulator?.close();
  await rm(folder, { recursive: true, force: true });
});

describe('compressed bodies through ofkit record', () => {
  it('passes each answer on in the coding it came in', () => {
    const coded = answers.filter((answer) => answer.coding === 'gzip');
    expect(coded.length).toBe(3);
    expect(answers.map((answer) => answer.coding)).toEqual(['gzip', 'br', 'gzip', 'gzip', 'zstd']);
    for (const answer of coded)
      expect(() => JSON.parse(gunzipSync(answer.bytes).toString('utf8'))).not.toThrow();
  });

  it('checks the decoded bodies: no drift, every exchange checked', () => {
    expect(report.drift).toEqual([]);
    expect(report.rulesBroken).toEqual([]);
    expect(report.checked).toBe(5);
  });

  it('records each body decoded, as JSON', () => {
    const [registration] = har.log.entries;
    expect(JSON.parse(registration!.request.postData!.text!)).toMatchObject({
      institution: 'ofbank_br_retail',
      access_mode: 'single',
    });
    expect(JSON.parse(registration!.response.content.text!)).toMatchObject({
      institution: 'ofbank_br_retail',
    });
    const refused = har.log.entries[1]!;
    expect(refused.response.status).toBe(400);
    expect(JSON.parse(refused.response.content.text!)[0]).toHaveProperty('code');
    const list = har.log.entries[3]!;
    expect(JSON.parse(list.response.content.text!).results).toHaveLength(owners.length);
  });

  it('keeps no credential and no personal value, compressed or not', () => {
    expect(owners.length).toBeGreaterThan(0);
    const personal = owners.flatMap((owner) =>
      ['display_name', 'document_number', 'email']
        .map((name) => owner[name])
        .filter((v) => typeof v === 'string'),
    ) as string[];
    expect(personal.length).toBeGreaterThan(0);
    for (const value of [USERNAME, PASSWORD, ...personal]) expect(harText).not.toContain(value);
  });

  it('leaves out an answer in a coding it cannot undo, never its bytes', () => {
    const zstd = har.log.entries[4]!;
    expect(zstd.response.content.text).toBeUndefined();
    expect(JSON.stringify(zstd)).toContain('response_body_omitted');
  });
});
