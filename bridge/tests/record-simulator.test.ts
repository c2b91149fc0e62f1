/**
 * `ofkit record` in front of the simulator (startSimulator, as `ofkit simulate` runs it), the whole
 * sample session through it: no drift (the simulator keeps its document and rules); the recording is a
 * HAR 1.2 file whose every entry is an exchange; `ofkit drift` over it finds what the live proxy found;
 * and with defaults not one credential or personal value the client sent or received is in it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import { loadBridgeDocument } from '../src/document/bridge-document.js';
import type { Har } from '../src/har/har-types.js';
import { checkRecordings } from '../src/recording/check-recordings.js';
import { startRecorder } from '../src/recording/recorder.js';
import type { DriftReport } from '../src/report/drift-report.js';
import { jsonReport } from '../src/report/report-formats.js';
import { runSampleTraffic } from '../test-support/sample-traffic.js';
import { foundIn, sensitiveValues } from '../test-support/sensitive-values.js';
import { type SeenExchange, trafficClient } from '../test-support/traffic-client.js';

let folder: string;
let simulator: StartedSimulator;
let live: DriftReport;
let harText: string;
const seen: SeenExchange[] = [];

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ofkit-record-'));
  simulator = await startSimulator({ seed: 'record', tickMs: 0 });
  const recorder = await startRecorder({
    upstream: simulator.url,
    harPath: join(folder, 'session.har'),
    env: {},
  });
  const [a, b] = simulator.keys;
  await runSampleTraffic(
    trafficClient(recorder.url, a!, (exchange) => seen.push(exchange)),
    [a!, b!],
  );
  live = await recorder.close();
  harText = await readFile(join(folder, 'session.har'), 'utf8');
}, 60_000);

afterAll(async () => {
  await simulator.close();
  await rm(folder, { recursive: true, force: true });
});

describe('ofkit record in front of ofkit simulate', () => {
  it('shows no drift, having checked most of the API', () => {
    expect(live.drift).toEqual([]);
    expect(live.rulesBroken).toEqual([]);
    expect(live.checked).toBeGreaterThan(80);
    expect(live.operations.length).toBeGreaterThan(30);
    expect(live.recordings[0]?.notChecked['left out: the checks fell behind']).toBe(0);
    expect(live.recordings[0]?.notChecked['left out: an internal error']).toBe(0);
  });

  it('writes a HAR 1.2 file with one entry per exchange the client made', () => {
    const har = JSON.parse(harText) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toBe('ofkit');
    expect(har.log.entries).toHaveLength(seen.length);
    for (const [index, entry] of har.log.entries.entries()) {
      expect(entry.request.method).toBe(seen[index]!.method);
      expect(entry.response.status).toBe(seen[index]!.status);
      expect(Date.parse(entry.startedDateTime)).not.toBeNaN();
      expect(entry.request.url.startsWith(simulator.url)).toBe(true);
    }
  });

  it('ofkit drift over the recording finds what the live proxy found', async () => {
    const offline = await checkRecordings({
      document: loadBridgeDocument(),
      files: [join(folder, 'session.har')],
      keepPersonal: false,
      allowances: [],
    });
    expect(offline.checked).toBe(live.checked);
    expect(offline.operations).toEqual(live.operations);
    expect(offline.drift).toEqual(live.drift);
    const summary = (report: DriftReport) =>
      report.client.map((e) => [e.operation, e.status, e.kind, e.member, e.count]);
    expect(summary(offline)).toEqual(summary(live));
    const verdicts = (report: DriftReport) =>
      report.judge.flatMap((t) => t.verdicts.map((v) => `${v.rule} ${v.verdict}`));
    expect(verdicts(offline)).toEqual(verdicts(live));
  });

  it('keeps no credential or personal value the client sent or received, in the HAR nor in the report', () => {
    const values = sensitiveValues(loadBridgeDocument(), seen);
    // The session sends keys, passwords, MFA tokens and sessions, CPFs, names and emails: a test that
    // found none would prove nothing.
    expect(values.size).toBeGreaterThan(50);
    for (const known of [
      'ofkit-key-a',
      'ofkit-secret-a',
      'ofkit-key-b',
      '76109277673',
      'Maria Souza',
      'maria.souza@example.com',
    ])
      expect(values).toContain(known);
    const report = jsonReport(live);
    const leaked = foundIn(`${harText}\n${report}`, values);
    expect(leaked).toEqual([]);
  });
});
