/**
 * The same traffic makes the same recording, byte for byte: a session captured from the simulator
 * (a Basic key, credentials in a JSON body, a form body and a query, a cookie, a wrong secret, records
 * with personal members, two pages of transactions, then a credential holding a comma;
 * bench/proxy/capture-traffic.ts, `--save`) is recorded under a fixed pseudonym key, twice over (the
 * second time every value has its pseudonym already), with personal data redacted and kept. The HAR
 * files and the findings are pinned by their sha256, taken from the recorder as it was before its CPU
 * per page was cut: what a recording holds changes only on purpose, and then these pins change with it.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTraffic } from '../../test-support/recorded-traffic.js';
import { loadBridgeDocument } from '../document/bridge-document.js';
import { decodedExchange } from '../exchange/exchange.js';
import { openHarWriter } from '../har/har-writer.js';
import { createRecordingSession } from './recording-session.js';

const TRAFFIC = loadTraffic(
  join(import.meta.dirname, '../../test-support/fixtures/recorded-traffic.json.gz'),
);

const PINNED = {
  redacted: {
    har: 'cdc8bc4f1b4fcfe4b15dce82841fdc010c8afec10bab7d1317885b8dfe1938f8',
    findings: 'aae7dcb2cb79b6b589366f01ac7447bad8a82caa53c519c66d8496b89df3fddb',
  },
  kept: {
    har: '658f6393f7c1a5f9693802acb3edc45026b5225fb7843bcfed82503816701ec2',
    findings: 'aae7dcb2cb79b6b589366f01ac7447bad8a82caa53c519c66d8496b89df3fddb',
  },
};

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'ofkit-recorded-bytes-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

async function record(keepPersonal: boolean): Promise<{ har: string; findings: string }> {
  const path = join(folder, `${keepPersonal ? 'kept' : 'redacted'}.har`);
  const har = await openHarWriter(path, {
    version: '1.2',
    creator: { name: 'ofkit', version: 'pinned' },
    _ofkit: { upstream: 'http://127.0.0.1', personal_data: keepPersonal ? 'kept' : 'redacted' },
  });
  const session = createRecordingSession({
    document: loadBridgeDocument(),
    basePath: '',
    keepPersonal,
    pseudonymKey: Buffer.alloc(32, 7),
    har,
  });
  for (const exchange of [...TRAFFIC, ...TRAFFIC]) await session.accept(decodedExchange(exchange));
  await har.close();
  return { har: await readFile(path, 'utf8'), findings: JSON.stringify(session.findings()) };
}

describe('a recording of the same traffic', () => {
  it('holds every exchange, without the credentials and personal values the traffic carried', async () => {
    const { har } = await record(false);
    expect((JSON.parse(har) as { log: { entries: unknown[] } }).log.entries).toHaveLength(TRAFFIC.length * 2);
    const page = TRAFFIC.find((exchange) => exchange.request.url.includes('page_size=100'));
    const text = Buffer.concat(page?.response.bodyChunks ?? []).toString('utf8');
    const account = (JSON.parse(text) as { results: { account: { number: string } }[] }).results[0]!.account;
    for (const value of [
      'form-pass-4821',
      'query-pass-5512',
      'late,comma-7781',
      '76109277673',
      account.number,
    ])
      expect(har).not.toContain(value);
  });

  it('is byte for byte the pinned one, personal data redacted or kept', async () => {
    const pins = async (keepPersonal: boolean) => {
      const { har, findings } = await record(keepPersonal);
      return { har: sha256(har), findings: sha256(findings) };
    };
    expect({ redacted: await pins(false), kept: await pins(true) }).toEqual(PINNED);
  });
});
