import { describe, expect, it } from 'vitest';
import { measureRound, type RoundResult, rowOfRounds } from './rounds.js';
import type { LoadResult } from './run-load.js';
import { CONSTANT_SCENARIO } from './scenarios.js';

const load = (requestsPerSecond: number, p99: number, requests: number): LoadResult => ({
  requestsPerSecond,
  latencyP50Ms: 1,
  latencyP99Ms: p99,
  latencyAvgMs: 1,
  latencyMaxMs: p99 * 2,
  requests,
  non2xx: 0,
  statusCodes: { 200: requests },
  errors: 0,
  timeouts: 0,
  durationSeconds: 2,
});

describe('rounds', () => {
  it('a row is the medians of its rounds, with counts summed and the worst max', () => {
    const rounds: RoundResult[] = [
      { load: load(900, 7, 1800), cpuUs: 160 },
      { load: load(1000, 5, 2000), cpuUs: 150 },
      { load: load(1100, 9, 2200), cpuUs: null },
    ];
    const row = rowOfRounds('simulator', 'get-link', 600, rounds);
    expect(row).toMatchObject({ cpuUs: 155, cpuUsByRound: [160, 150, null], bodyBytes: 600 });
    expect(row.load).toMatchObject({
      requestsPerSecond: 1000,
      latencyP99Ms: 7,
      latencyMaxMs: 18,
      requests: 6000,
    });
    expect(row.load.statusCodes).toEqual({ 200: 6000 });
    expect(row.redisCpuUs).toBeUndefined();
  });

  it('keeps redis-server’s CPU per request as a median of its own', () => {
    const rounds: RoundResult[] = [
      { load: load(900, 7, 1800), cpuUs: 160, redisCpuUs: 30 },
      { load: load(1000, 5, 2000), cpuUs: 150, redisCpuUs: 40 },
      { load: load(1100, 9, 2200), cpuUs: 170, redisCpuUs: 20 },
    ];
    expect(rowOfRounds('simulator-redis', 'get-link', 600, rounds).redisCpuUs).toBe(30);
  });

  it('a round warms up unmeasured, then reads the CPU of the server’s processes around the measured load', async () => {
    const settingsSeen: number[] = [];
    const server = {
      // This process stands in for the server: its CPU is readable.
      pids: [process.pid],
      redisPid: process.pid,
      load: async (_scenario: unknown, settings: { durationSeconds: number; warmupSeconds: number }) => {
        settingsSeen.push(settings.durationSeconds, settings.warmupSeconds);
        return load(500, 3, 1000);
      },
    };
    const round = await measureRound(server, CONSTANT_SCENARIO, {
      connections: 20,
      durationSeconds: 2,
      warmupSeconds: 0.5,
    });
    expect(settingsSeen).toEqual([0.5, 0, 2, 0]);
    expect(round.load.requests).toBe(1000);
    expect(round.cpuUs).toBeGreaterThanOrEqual(0);
    expect(round.redisCpuUs).toBeGreaterThanOrEqual(0);
  });

  it('a round without CPU readings (the process gone) reports null, not zero', async () => {
    const server = { pids: [2 ** 30], load: async () => load(500, 3, 1000) };
    const round = await measureRound(server, CONSTANT_SCENARIO, {
      connections: 20,
      durationSeconds: 1,
      warmupSeconds: 0,
    });
    expect(round.cpuUs).toBeNull();
  });
});
