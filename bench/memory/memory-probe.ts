/**
 * Bench child: the simulator's start-up time (startSimulator, to the first 200 of GET /api/)
 * and its memory, empty and with `--links` links of `--per-link` transactions each loaded; it then
 * serves, so the runner can sample list latency with that data in the store, and reports on exit
 * (`BENCH_GC`) the garbage collections that happened while it served.
 * Run with `node --expose-gc --import tsx bench/memory/memory-probe.ts [--links N] [--per-link N]`.
 */
import { request } from 'node:http';
import { parseArgs } from 'node:util';
import type { Simulator } from '../../simulator/src/simulator.js';
import { startBenchSimulator } from '../servers/bench-simulator.js';
import { exitCleanly, type ReadyInfo, reportLine, reportReady } from '../servers/child-protocol.js';
import { BASIC_AUTH, BENCH_KEY, LINKS, TRANSACTIONS } from '../servers/seed-data.js';
import { bulkLoad } from './bulk-load.js';
import { watchGc } from './gc-watch.js';

export interface MemoryFigures {
  rssMiB: number;
  heapUsedMiB: number;
  heapTotalMiB: number;
}

/** What the probe reports on its ready line. */
export interface MemoryProbeInfo extends ReadyInfo {
  importedMs: number;
  startupMs: number;
  readySinceProcessStartMs: number;
  empty: MemoryFigures;
  loaded: MemoryFigures;
  loadMs: number;
  links: number;
  transactions: number;
  generateBlockMs: number;
  sampleLinkId: string;
  storeListByLinkUs: number;
  storeListAllLinksMs: number;
}

/** Milliseconds from process start to here: node, tsx and every import (Prism, Ajv...) loaded. */
const importedMs = performance.now();

/** One GET /api/ with node:http (fetch would add its own lazy start-up to the figure). */
function getApiRoot(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/`, { headers: { authorization: BASIC_AUTH } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Memory after a full collection (the child runs with --expose-gc), in MiB. */
function memory(): MemoryFigures {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  const mib = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
  return { rssMiB: mib(usage.rss), heapUsedMiB: mib(usage.heapUsed), heapTotalMiB: mib(usage.heapTotal) };
}

/** Mean time of `store.list` by link over `count` links, in microseconds (the per-link index). */
async function timeListByLink(simulator: Simulator, linkIds: string[]) {
  const tenant = simulator.tenant(BENCH_KEY.secretId);
  const count = Math.min(1_000, linkIds.length);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    await tenant.store.list(TRANSACTIONS, { link: linkIds[(i * 7919) % linkIds.length]! });
  }
  const byLinkUs = ((performance.now() - started) * 1000) / count;
  const allLinksStarted = performance.now();
  await tenant.store.list(LINKS);
  return { byLinkUs, allLinksMs: performance.now() - allLinksStarted };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      links: { type: 'string', default: '10000' },
      'per-link': { type: 'string', default: '100' },
    },
  });
  const started = performance.now();
  const running = await startBenchSimulator();
  const { simulator, url } = running;
  const status = await getApiRoot(url);
  if (status !== 200) throw new Error(`GET /api/ answered ${status}`);
  const startupMs = performance.now() - started;
  const empty = memory();
  const loadStarted = performance.now();
  const loaded = await bulkLoad(simulator, Number(values.links), Number(values['per-link']));
  const loadMs = performance.now() - loadStarted;
  const full = memory();
  const store = await timeListByLink(simulator, loaded.linkIds);
  // Collections from here on happen while the runner samples latency; reported on exit.
  const stopGcWatch = watchGc();
  exitCleanly(running, async () => reportLine('GC', stopGcWatch()));
  const info: MemoryProbeInfo = {
    url,
    importedMs,
    startupMs,
    readySinceProcessStartMs: importedMs + startupMs,
    empty,
    loaded: full,
    loadMs,
    links: loaded.links,
    transactions: loaded.transactions,
    generateBlockMs: loaded.generateBlockMs,
    sampleLinkId: loaded.linkIds[Math.floor(loaded.linkIds.length / 2)] ?? '',
    storeListByLinkUs: store.byLinkUs,
    storeListAllLinksMs: store.allLinksMs,
  };
  reportReady(info);
}

await main();
