/**
 * Keys are handed out only where they are public. The dashboard's key endpoint offers the published
 * default keys only, on loopback only, never to a request a proxy passed on; the start-up lines print
 * no secret given with --keys; and `simulate`, `exec` and `replay` refuse to listen beyond loopback
 * with the published default keys (one line, exit 2) unless --keys or --allow-default-keys says so.
 * The interface tried beyond loopback is TEST-NET-1 (192.0.2.1, never this machine's): a start that
 * is not refused fails to bind it, so nothing ever listens beyond loopback here.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { toHarEntry } from '../../bridge/src/har/har-entry.js';
import { execCommand } from '../../scripts/cli/exec.js';
import { replay } from '../../scripts/cli/replay.js';
import { simulateCommand, startFromConfig } from '../../scripts/cli/simulate.js';
import { DEFAULT_KEYS, parseSimulatorConfig } from '../../simulator/src/config/simulator-config.js';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { basic, probe } from './http-probes.js';

const TEAM = { secretId: 'team-a', secretPassword: 'team-a-s3cret', environment: 'production' as const };
const BEYOND_LOOPBACK = '192.0.2.1';

describe('GET /_ofkit/ui/keys: the published default keys, on loopback, never through a proxy', () => {
  let simulator: StartedSimulator;
  beforeAll(async () => {
    simulator = await startSimulator({ seed: 'keys', tickMs: 0, keys: [...DEFAULT_KEYS, TEAM] });
  });
  afterAll(() => simulator.close());

  it('lists the published keys of the environment and never a --keys secret', async () => {
    const answer = await probe(simulator.url, '/_ofkit/ui/keys');
    expect(answer.status).toBe(200);
    expect(answer.json.keys.map((key: { secret_id: string }) => key.secret_id)).toEqual([
      'ofkit-key-a',
      'ofkit-key-b',
    ]);
    expect(answer.text).not.toContain(TEAM.secretPassword);
  });

  it('answers 404 to a request a reverse proxy on this machine passed on', async () => {
    const proxied: Record<string, string>[] = [
      { 'x-forwarded-for': '203.0.113.9' },
      { 'x-forwarded-host': 'sim.example.com' },
      { forwarded: 'for=203.0.113.9' },
      { via: '1.1 proxy.example' },
    ];
    for (const headers of proxied) {
      const answer = await probe(simulator.url, '/_ofkit/ui/keys', { headers });
      expect(answer.status, JSON.stringify(headers)).toBe(404);
      expect(answer.text).not.toContain('ofkit-secret-a');
    }
    // The tenant still works through the proxy, typing its key.
    const headers = {
      'x-forwarded-for': '203.0.113.9',
      authorization: basic(TEAM.secretId, TEAM.secretPassword),
    };
    expect((await probe(simulator.url, '/api/', { headers })).status).toBe(200);
  });
});

describe('the start-up lines print no secret given with --keys', () => {
  it('masks the secret in the keys line and the curl line; the published defaults stay printed', async () => {
    const lines: string[] = [];
    const own = await startFromConfig(
      parseSimulatorConfig(['--port', '0', '--keys', 'team-a:team-a-s3cret']),
      (line) => lines.push(line),
    );
    await own.close();
    const printed = lines.join('\n');
    expect(printed).not.toContain('team-a-s3cret');
    expect(printed).toContain('team-a:***');
    const defaults: string[] = [];
    const published = await startFromConfig(parseSimulatorConfig(['--port', '0']), (line) =>
      defaults.push(line),
    );
    await published.close();
    expect(defaults.join('\n')).toContain('ofkit-key-a:ofkit-secret-a');
  });
});

describe('listening beyond loopback with the published default keys is refused: one line, exit 2', () => {
  let folder: string;
  let har: string;
  let errors: string[];
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'ofkit-exposure-'));
    har = await oneLinkRecording(folder);
  });
  afterAll(() => rm(folder, { recursive: true, force: true }));
  afterEach(() => vi.restoreAllMocks());

  const capture = () => {
    errors = [];
    vi.spyOn(console, 'error').mockImplementation((line: unknown) => void errors.push(String(line)));
    vi.spyOn(console, 'log').mockImplementation(() => undefined);
  };
  const refusedOnce = () => {
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/published default keys \(ofkit-key-a/);
    expect(errors[0]).toContain('--allow-default-keys');
  };

  it('ofkit simulate, ofkit exec and ofkit replay', async () => {
    const host = ['--host', BEYOND_LOOPBACK, '--port', '0'];
    capture();
    expect(await simulateCommand(host)).toBe(2);
    refusedOnce();
    capture();
    expect(await execCommand([...host, '--', 'true'])).toBe(2);
    refusedOnce();
    capture();
    expect(await replay([har, ...host], { print: () => undefined })).toBe(2);
    refusedOnce();
  });

  it('is not refused with --keys or --allow-default-keys (the start goes on, to the interface)', async () => {
    for (const extra of [['--keys', 'team-a:team-a-s3cret'], ['--allow-default-keys']]) {
      capture();
      expect(await simulateCommand(['--host', BEYOND_LOOPBACK, '--port', '0', ...extra])).toBe(2);
      expect(errors.join('\n')).toContain(`cannot listen on ${BEYOND_LOOPBACK}`);
    }
  });
});

/** A HAR of one link registration, as ofkit record writes one (the replay's input). */
async function oneLinkRecording(folder: string): Promise<string> {
  const source = await startSimulator({ seed: 'exposure-har', tickMs: 0 });
  const key = DEFAULT_KEYS[0]!;
  const body = JSON.stringify({ institution: 'ofbank_br_retail', username: '76109277673', password: 'x' });
  const headers: [string, string][] = [
    ['authorization', basic(key.secretId, key.secretPassword)],
    ['content-type', 'application/json'],
  ];
  const answer = await probe(source.url, '/api/links/', {
    method: 'POST',
    headers: Object.fromEntries(headers),
    body,
  });
  await source.close();
  expect(answer.status).toBe(201);
  const entry = toHarEntry({
    startedAt: '2026-11-02T12:00:00.000Z',
    durationMs: 1,
    request: { method: 'POST', url: `${source.url}/api/links/`, headers, body },
    response: {
      status: 201,
      statusText: 'Created',
      headers: [['content-type', 'application/json']],
      body: answer.text,
    },
  });
  const path = join(folder, 'one-link.har');
  const log = { version: '1.2', creator: { name: 'test', version: '1' }, entries: [entry] };
  await writeFile(path, JSON.stringify({ log }));
  return path;
}
