import { describe, expect, it } from 'vitest';
import { cpuMsOfStatLine, cpuPerRequestUs, median, processCpuMs, processesCpuMs } from './cpu-time.js';

// A real line's shape: pid, (comm), state, then 49 more fields; utime 250 and stime 50 ticks here.
const statLine = (comm: string, utime: number, stime: number) =>
  `4129 (${comm}) R 4126 4126 32216 0 -1 4194304 97 0 0 0 ${utime} ${stime} 0 0 20 0 1 0 1368666 3133440 407`;

describe('CPU time from /proc/<pid>/stat', () => {
  it('adds user and system ticks and turns them into milliseconds at the clock rate', () => {
    expect(cpuMsOfStatLine(statLine('node', 250, 50), 100)).toBe(3000);
    expect(cpuMsOfStatLine(statLine('node', 250, 50), 1000)).toBe(300);
  });

  it('counts fields after the last parenthesis, whatever the command name holds', () => {
    expect(cpuMsOfStatLine(statLine('MainThread) R 1 2 (x', 7, 3), 100)).toBe(100);
    expect(cpuMsOfStatLine(statLine('redis-server *:0', 7, 3), 100)).toBe(100);
  });

  it('refuses a line that is not a stat line instead of reading garbage', () => {
    expect(() => cpuMsOfStatLine('no fields here', 100)).toThrow(/not a \/proc/);
  });

  it('reads this process, and nothing for a process that does not exist', () => {
    expect(processCpuMs(process.pid)).toBeGreaterThanOrEqual(0);
    expect(processCpuMs(2 ** 30)).toBeUndefined();
    expect(processesCpuMs([process.pid, 2 ** 30])).toBeUndefined();
  });
});

describe('CPU per request', () => {
  it('divides the CPU used between two readings by the requests answered, in microseconds', () => {
    expect(cpuPerRequestUs(1000, 1500, 10_000)).toBe(50);
  });

  it('is null without a reading, without requests, or when the clock went back (another process)', () => {
    expect(cpuPerRequestUs(undefined, 1500, 10)).toBeNull();
    expect(cpuPerRequestUs(1000, undefined, 10)).toBeNull();
    expect(cpuPerRequestUs(1000, 1500, 0)).toBeNull();
    expect(cpuPerRequestUs(1500, 1000, 10)).toBeNull();
  });

  it('takes the median of three rounds, leaving out rounds that measured nothing', () => {
    expect(median([90, 30, 60])).toBe(60);
    expect(median([90, null, 30])).toBe(60);
    expect(median([null])).toBeNull();
    expect(median([])).toBeNull();
  });
});
