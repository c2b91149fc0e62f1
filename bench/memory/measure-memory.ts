/**
 * Runs the memory probe child and samples GET latency with 10,000 links and 1,000,000 transactions
 * loaded: the list page by link (the store's per-link index), one link, and the link list.
 */
import { readFile } from 'node:fs/promises';
import { type LoadResult, type LoadSettings, runLoad } from '../load/run-load.js';
import { formatTable } from '../report/format-report.js';
import { startChild, tsxArgs } from '../servers/child-process.js';
import { BASIC_AUTH, LINKS, TRANSACTIONS } from '../servers/seed-data.js';
import type { GcCounts } from './gc-watch.js';
import type { MemoryProbeInfo } from './memory-probe.js';

export const MEMORY_LINKS = 10_000;
export const MEMORY_PER_LINK = 100;

export interface MemoryReport {
  /** What the probe child reported (start-up, memory empty and loaded, load time, store timings). */
  probe: MemoryProbeInfo;
  /** Spawn to ready, loading included. */
  spawnToReadyMs: number;
  /** The child's resident set and its peak, read from /proc after the samples (Linux only). */
  procStatus: { vmRssMiB: number | null; vmHwmMiB: number | null };
  samples: { path: string; load: LoadResult }[];
  /** Garbage collections in the probe while it served the samples (null when it did not report). */
  gcWhileServing: GcCounts | null;
}

const GC_LINE = 'BENCH_GC ';

async function procStatus(pid: number): Promise<MemoryReport['procStatus']> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kib = (field: string) => {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
    return match?.[1] === undefined ? null : Math.round(Number(match[1]) / 102.4) / 10;
  };
  return { vmRssMiB: kib('VmRSS'), vmHwmMiB: kib('VmHWM') };
}

export async function measureStartupAndMemory(settings: LoadSettings): Promise<MemoryReport> {
  const child = await startChild({
    name: 'memory-probe',
    command: process.execPath,
    args: [
      ...tsxArgs('bench/memory/memory-probe.ts', ['--expose-gc']),
      '--links',
      String(MEMORY_LINKS),
      '--per-link',
      String(MEMORY_PER_LINK),
    ],
    timeoutMs: 600_000,
    collectReports: true,
  });
  try {
    const link = (child.info as MemoryProbeInfo).sampleLinkId;
    const paths = [
      `${TRANSACTIONS}?link=${link}&page_size=100`,
      `${LINKS}${link}/`,
      `${LINKS}?page_size=100`,
    ];
    const samples: MemoryReport['samples'] = [];
    for (const path of paths) {
      const load = await runLoad(
        child.url,
        { method: 'GET', path, headers: { authorization: BASIC_AUTH } },
        settings,
      );
      samples.push({ path, load });
    }
    const probe = child.info as MemoryProbeInfo;
    const proc = await procStatus(child.pid);
    // The probe reports its GC counts as it exits.
    await child.stop();
    const gcLine = child.reports.find((line) => line.startsWith(GC_LINE));
    const gcWhileServing =
      gcLine === undefined ? null : (JSON.parse(gcLine.slice(GC_LINE.length)) as GcCounts);
    return { probe, spawnToReadyMs: child.readyMs, procStatus: proc, samples, gcWhileServing };
  } finally {
    await child.stop();
  }
}

const fixed = (value: number | null, digits = 0) => (value === null ? 'n/a' : value.toFixed(digits));

function formatGc(gc: GcCounts | null): string {
  if (gc === null) return 'GC while serving the samples: not reported';
  const kinds = Object.entries(gc.byKind)
    .map(([kind, { count, totalMs }]) => `${kind} ${count} (${totalMs.toFixed(0)} ms)`)
    .join(', ');
  return `GC while serving the samples: ${gc.count} collections, ${gc.totalMs.toFixed(0)} ms in total, longest ${gc.maxMs.toFixed(1)} ms: ${kinds}`;
}

export function formatMemory(report: MemoryReport): string {
  const { probe: p, procStatus: proc } = report;
  return [
    `start-up: createSimulator + listen to the first 200 of GET /api/: ${fixed(p.startupMs)} ms (imports before that: ${fixed(p.importedMs)} ms; process start to ready: ${fixed(p.readySinceProcessStartMs)} ms)`,
    `memory empty (after GC): RSS ${fixed(p.empty.rssMiB, 1)} MiB, heap used ${fixed(p.empty.heapUsedMiB, 1)} MiB`,
    `load ${p.links} links + ${p.transactions} transactions: ${fixed(p.loadMs)} ms (of which generating the block that is cloned: ${fixed(p.generateBlockMs)} ms)`,
    `memory loaded (after GC): RSS ${fixed(p.loaded.rssMiB, 1)} MiB, heap used ${fixed(p.loaded.heapUsedMiB, 1)} MiB; after the samples: RSS ${fixed(proc.vmRssMiB, 1)} MiB, peak ${fixed(proc.vmHwmMiB, 1)} MiB`,
    `store.list by link: ${fixed(p.storeListByLinkUs, 1)} us per call; store.list of all ${p.links} links: ${fixed(p.storeListAllLinksMs, 1)} ms`,
    formatGc(report.gcWhileServing),
    formatTable(
      ['GET with the data loaded', 'req/s', 'p50 ms', 'p99 ms', 'statuses'],
      report.samples.map(({ path, load }) => [
        path,
        load.requestsPerSecond.toFixed(0),
        String(load.latencyP50Ms),
        String(load.latencyP99Ms),
        Object.entries(load.statusCodes)
          .map(([code, count]) => `${code}:${count}`)
          .join(' '),
      ]),
    ),
  ].join('\n');
}
