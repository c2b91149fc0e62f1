/**
 * Compressed bodies through `ofkit record`: an implementation that compresses its answers although the
 * proxy asked for identity (a server behind a CDN does), and a client that compresses what it sends.
 * A compressed JSON answer goes on decoded, its `next` links pointing at the proxy (unless it says
 * `no-transform`: then as it came); the recording holds each body decoded, checked and redacted (no
 * credential or personal value in it, compressed or not), and a body in a coding the bridge cannot
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
let frontUrl: string;
let proxyUrl: string;

/** The implementation: the simulator behind a server that undoes gzip requests and codes its answers. */
async function startFront(upstream: string): Promise<Server> {
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', async () => {
      const sent = Buffer.concat(chunks);
      const body = incoming.headers['content-encoding'] === 'gzip' ? gunzipSync(sent) : sent;
      // The Host as it came, as a gateway passes it on: the simulator's absolute URLs name this server.
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(incoming.headers))
        if (
          typeof value === 'string' &&
          !['content-length', 'content-encoding', CODING_HEADER].includes(name)
        )
          headers[name] = value;
      const answer = await request(`${upstream}${incoming.url}`, {
        method: incoming.method as 'GET',
        headers,
        ...(body.length > 0 && { body }),
      });
      const plain = Buffer.from(await answer.body.arrayBuffer());
      const asked = incoming.headers[CODING_HEADER] as string | undefined;
      const coding = asked?.replace('+no-transform', '');
      const out = coding === 'gzip' ? gzipSync(plain) : coding === 'br' ? brotliCompressSync(plain) : plain;
      response.writeHead(answer.statusCode, {
        'content-type': String(answer.headers['content-type'] ?? 'application/json'),
        ...(coding && { 'content-encoding': coding }),
        ...(asked?.endsWith('+no-transform') && { 'cache-control': 'no-transform' }),
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
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
  const recorder = await startRecorder({ upstream: frontUrl, harPath: join(folder, 'session.har'), env: {} });
  proxyUrl = recorder.url;
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
  const link = (JSON.parse(registered.toString('utf8')) as { id: string }).id;
  // Refused (no body): an error array coded br.
  await call('POST', '/api/owners/', 'br');
  await call('POST', '/api/owners/', 'gzip', { link });
  owners = JSON.parse((await call('GET', `/api/owners/?link=${link}`, 'gzip')).toString('utf8')).results;
  await call('GET', '/api/institutions/?page_size=1', 'gzip');
  await call('GET', '/api/institutions/?page_size=1', 'gzip+no-transform');
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
  it('passes a compressed JSON answer on decoded, its next link pointing at the proxy', () => {
    expect(answers.map((answer) => answer.coding)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      'gzip',
      'zstd',
    ]);
    for (const answer of answers.slice(0, 5))
      expect(() => JSON.parse(answer.bytes.toString('utf8'))).not.toThrow();
    expect(JSON.parse(answers[4]!.bytes.toString('utf8')).next).toMatch(
      new RegExp(`^${proxyUrl}/api/institutions/`),
    );
  });

  it('passes an answer that says no-transform, or one in a coding it cannot undo, as it came', () => {
    expect(JSON.parse(gunzipSync(answers[5]!.bytes).toString('utf8')).next).toMatch(
      new RegExp(`^${frontUrl}/api/institutions/`),
    );
    expect(() => JSON.parse(answers[6]!.bytes.toString('utf8'))).not.toThrow();
  });

  it('checks the decoded bodies: no drift, every exchange checked', () => {
    expect(report.drift).toEqual([]);
    expect(report.rulesBroken).toEqual([]);
    expect(report.checked).toBe(7);
  });

  it('records each body decoded, as the implementation said it', () => {
    const [registration, refused, , list, page] = har.log.entries;
    expect(JSON.parse(registration!.request.postData!.text!)).toMatchObject({
      institution: 'ofbank_br_retail',
      access_mode: 'single',
    });
    expect(JSON.parse(registration!.response.content.text!)).toMatchObject({
      institution: 'ofbank_br_retail',
    });
    expect(refused!.response.status).toBe(400);
    expect(JSON.parse(refused!.response.content.text!)[0]).toHaveProperty('code');
    expect(JSON.parse(list!.response.content.text!).results).toHaveLength(owners.length);
    expect(JSON.parse(page!.response.content.text!).next).toMatch(new RegExp(`^${frontUrl}/`));
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
    const zstd = har.log.entries[6]!;
    expect(zstd.response.content.text).toBeUndefined();
    expect(JSON.stringify(zstd)).toContain('response_body_omitted');
  });
});
