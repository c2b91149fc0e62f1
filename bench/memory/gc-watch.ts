/**
 * Counts garbage collections and their pauses while a bench child serves: with a million records in
 * the old generation, young-generation collections get slower, and that shows in list latency.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';

export interface GcCounts {
  count: number;
  totalMs: number;
  maxMs: number;
  /** By kind: minor (scavenge), major (mark-compact), incremental, weakcb. */
  byKind: Record<string, { count: number; totalMs: number }>;
}

const KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weakcb',
};

/** Starts counting; the returned function stops and gives the counts so far. */
export function watchGc(): () => GcCounts {
  const counts: GcCounts = { count: 0, totalMs: 0, maxMs: 0, byKind: {} };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // Node puts the collection's kind in `detail` (the typings of Node 20 do not declare it).
      const detail = (entry as { detail?: { kind?: number } }).detail;
      const kind = KINDS[detail?.kind ?? -1] ?? 'other';
      const byKind = counts.byKind[kind] ?? { count: 0, totalMs: 0 };
      byKind.count += 1;
      byKind.totalMs += entry.duration;
      counts.byKind[kind] = byKind;
      counts.count += 1;
      counts.totalMs += entry.duration;
      counts.maxMs = Math.max(counts.maxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    return counts;
  };
}
