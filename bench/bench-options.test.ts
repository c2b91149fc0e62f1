import { describe, expect, it } from 'vitest';
import { BenchUsageError, parseBenchOptions } from './bench-options.js';

describe('bench options', () => {
  it('defaults to 2 s runs (per round) at 20 connections, profiling only when a target is missed', () => {
    expect(parseBenchOptions([])).toMatchObject({
      durationSeconds: 2,
      connections: 20,
      profile: 'auto',
      memory: true,
      redis: true,
      warmupSeconds: 0.5,
      peers: true,
    });
  });

  it('--no-redis leaves the Redis servers out, --no-proxy the recording proxy, --no-peers the peers; --warmup sets the warm-up, 0 included', () => {
    expect(parseBenchOptions(['--no-redis']).redis).toBe(false);
    expect(parseBenchOptions([]).proxy).toBe(true);
    expect(parseBenchOptions(['--no-proxy']).proxy).toBe(false);
    expect(parseBenchOptions([]).gate).toBe(false);
    expect(parseBenchOptions(['--gate']).gate).toBe(true);
    expect(parseBenchOptions(['--warmup', '0']).warmupSeconds).toBe(0);
    expect(parseBenchOptions(['--quick']).warmupSeconds).toBe(0.25);
    expect(parseBenchOptions(['--no-peers']).peers).toBe(false);
    expect(parseBenchOptions(['--quick', '--warmup', '2']).warmupSeconds).toBe(2);
    expect(() => parseBenchOptions(['--warmup', '-1'])).toThrow(BenchUsageError);
    expect(() => parseBenchOptions(['--warmup', 'x'])).toThrow(BenchUsageError);
  });

  it('--quick runs 1 s; --duration wins over it', () => {
    expect(parseBenchOptions(['--quick']).durationSeconds).toBe(1);
    expect(parseBenchOptions(['--quick', '--duration', '3']).durationSeconds).toBe(3);
  });

  it('refuses a bad duration, unknown flags and contradictory profile flags', () => {
    expect(() => parseBenchOptions(['--duration', '0'])).toThrow(BenchUsageError);
    expect(() => parseBenchOptions(['--duration', '600'])).toThrow(BenchUsageError);
    expect(() => parseBenchOptions(['--seconds', '3'])).toThrow(BenchUsageError);
    expect(() => parseBenchOptions(['--profile', '--no-profile'])).toThrow(BenchUsageError);
  });
});
