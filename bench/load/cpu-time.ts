/**
 * CPU time of a server process, read from outside it (`/proc/<pid>/stat`: user + system time of every
 * thread, the garbage collector's and libuv's included), so the same reading serves our children, the
 * peers and redis-server alike. CPU per request is steadier than throughput on a shared 2-core
 * machine, where the load generator competes with the server for the same cores: the work a request
 * costs does not depend on how often the load generator got to run.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of `utime`/`stime` (100 on Linux almost everywhere; asked once). */
function ticksPerSecond(): number {
  try {
    const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
  } catch {
    return 100;
  }
}

let ticks: number | undefined;

/**
 * User + system CPU milliseconds of one `/proc/<pid>/stat` line. The command name (field 2) sits in
 * parentheses and may hold spaces or parentheses itself, so the fields are counted after its last `)`:
 * there, state is the first, utime (field 14) the twelfth and stime (field 15) the thirteenth.
 */
export function cpuMsOfStatLine(line: string, ticksPerSecondOfClock: number): number {
  const fields = line.slice(line.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime))
    throw new Error(`not a /proc/<pid>/stat line: ${line.slice(0, 80)}`);
  return ((utime + stime) * 1000) / ticksPerSecondOfClock;
}

/** CPU milliseconds the process has used so far, or undefined when it cannot be read (gone, not Linux). */
export function processCpuMs(pid: number): number | undefined {
  try {
    ticks ??= ticksPerSecond();
    return cpuMsOfStatLine(readFileSync(`/proc/${pid}/stat`, 'utf8'), ticks);
  } catch {
    return undefined;
  }
}

/** The summed CPU milliseconds of several processes (a server and its replicas), undefined if any is unreadable. */
export function processesCpuMs(pids: readonly number[]): number | undefined {
  let sum = 0;
  for (const pid of pids) {
    const ms = processCpuMs(pid);
    if (ms === undefined) return undefined;
    sum += ms;
  }
  return sum;
}

/**
 * Microseconds of CPU per answered request between two readings; null when a reading is missing or
 * nothing was answered (a figure over zero requests would be a division by nothing, not a measurement).
 */
export function cpuPerRequestUs(
  beforeMs: number | undefined,
  afterMs: number | undefined,
  requests: number,
): number | null {
  if (beforeMs === undefined || afterMs === undefined || requests <= 0 || afterMs < beforeMs) return null;
  return ((afterMs - beforeMs) * 1000) / requests;
}

/** The median of the numbers given (the middle one, or the mean of the two middle ones); null for none. */
export function median(values: readonly (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null).sort((a, b) => a - b);
  if (known.length === 0) return null;
  const middle = Math.floor(known.length / 2);
  return known.length % 2 === 1 ? known[middle]! : (known[middle - 1]! + known[middle]!) / 2;
}
