/**
 * The recording's own CPU per page, apart from forwarding and from the machine's other load: the
 * exchanges `capture-traffic.ts` captured are handed, one thread, to the same recording session the
 * worker of `ofkit record` runs (through a message as the proxy posts them, the answer's chunks
 * moved, then decoded, redacted, checked and appended to a HAR file), and the page of 100 transactions
 * is recorded again and again, each time a fresh copy. CPU time (process.cpuUsage around each page:
 * this one thread, with the recorder's `--single-threaded-gc`) per page in three rounds, and their
 * median. `--cpu-profile FILE` writes a V8 CPU profile of the rounds; `--save FILE`
 * writes the captured traffic (as bridge/test-support/recorded-traffic.ts reads it).
 * Run: node --single-threaded-gc --import tsx bench/proxy/recording-cpu.ts [--pages N] [--cpu-profile FILE] [--save FILE]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadBridgeDocument } from '../../bridge/src/document/bridge-document.js';
import { decodedExchange, type ProxiedExchange } from '../../bridge/src/exchange/exchange.js';
import { openHarWriter } from '../../bridge/src/har/har-writer.js';
import { arrivedExchange, travellingExchange } from '../../bridge/src/recording/exchange-message.js';
import {
  createRecordingSession,
  type RecordingSession,
} from '../../bridge/src/recording/recording-session.js';
import { saveTraffic, withOwnedChunks } from '../../bridge/test-support/recorded-traffic.js';
import { startCpuProfile } from '../profile/cpu-profiler.js';
import { captureTraffic } from './capture-traffic.js';

const ROUNDS = 3;

/**
 * One exchange through the session as the worker meets it: through a message (the answer's chunks
 * moved, as the proxy moves its own: bridge/src/recording/exchange-message.ts), decoded, recorded.
 */
const record = (session: RecordingSession, exchange: ProxiedExchange) => {
  const travelling = travellingExchange(exchange);
  return session.accept(
    decodedExchange(arrivedExchange(structuredClone(travelling.exchange, { transfer: travelling.transfer }))),
  );
};

interface Round {
  /** CPU milliseconds per page. */
  cpuMs: number;
  /** Minor page faults per page (memory mapped and touched for the first time). */
  faults: number;
}

async function round(session: RecordingSession, page: ProxiedExchange, pages: number): Promise<Round> {
  const faultsBefore = process.resourceUsage().minorPageFault;
  let cpuMicros = 0;
  for (let index = 0; index < pages; index++) {
    const copy = withOwnedChunks(page);
    const start = process.cpuUsage();
    await record(session, copy);
    const { user, system } = process.cpuUsage(start);
    cpuMicros += user + system;
  }
  const faults = process.resourceUsage().minorPageFault - faultsBefore;
  return { cpuMs: cpuMicros / 1000 / pages, faults: faults / pages };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string', default: '300' },
      'cpu-profile': { type: 'string' },
      save: { type: 'string' },
    },
  });
  const pages = Number(values.pages);
  const traffic = await captureTraffic();
  if (values.save !== undefined) saveTraffic(values.save, traffic.exchanges);
  const page = traffic.exchanges[traffic.pageIndex]!;
  const folder = await mkdtemp(join(tmpdir(), 'ofkit-bench-recording-'));
  try {
    const har = await openHarWriter(join(folder, 'bench.har'), {
      version: '1.2',
      creator: { name: 'ofkit', version: 'bench' },
    });
    const session = createRecordingSession({
      document: loadBridgeDocument(),
      basePath: '',
      keepPersonal: false,
      pseudonymKey: Buffer.alloc(32, 1),
      har,
    });
    // The session learns the key and the records up to the page, then warms up (JIT, validators, schema index).
    for (const exchange of traffic.exchanges.slice(0, traffic.pageIndex + 1))
      await record(session, withOwnedChunks(exchange));
    await round(session, page, Math.max(50, pages / 3));
    const stopProfile = values['cpu-profile'] ? await startCpuProfile(values['cpu-profile'], 100) : undefined;
    const rounds: Round[] = [];
    for (let index = 0; index < ROUNDS; index++) rounds.push(await round(session, page, pages));
    await stopProfile?.();
    await har.close();
    const median = [...rounds].sort((a, b) => a.cpuMs - b.cpuMs)[1]!;
    const bytes = page.response.bodyChunks?.reduce((sum, chunk) => sum + chunk.length, 0) ?? 0;
    const load = loadavg().map((value) => value.toFixed(2));
    console.log(
      `the recording's own CPU per page of 100 transactions (${(bytes / 1024).toFixed(0)} KiB; redaction, checks, HAR): ` +
        `median ${median.cpuMs.toFixed(2)} ms, ${median.faults.toFixed(0)} page faults ` +
        `(rounds ${rounds.map((r) => r.cpuMs.toFixed(2)).join(', ')} ms; ${pages} pages each); load average ${load.join(' ')}`,
    );
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

await main();
