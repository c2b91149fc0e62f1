/** The benchmark's command line, parsed once, validated, defaulted, frozen. */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

export interface BenchOptions {
  /** Seconds of measured load per server, scenario and round. */
  readonly durationSeconds: number;
  /** Seconds of unmeasured load before each run (JIT, connection set-up). */
  readonly warmupSeconds: number;
  /** The benchmark states its latency target at 20 connections. */
  readonly connections: number;
  /** `auto`: profile the simulator only when the GET-100 target is missed. */
  readonly profile: 'auto' | 'always' | 'never';
  /** Start-up time and memory with 10,000 links and 1,000,000 transactions. */
  readonly memory: boolean;
  /** Transactions seeded for the benchmark's link (more than one page of 100). */
  readonly transactions: number;
  /** The simulator on Redis too (one replica and two), when redis-server is installed. */
  readonly redis: boolean;
  /** Prism's mock, json-server and Mockoon's CLI serving the same 100 records. */
  readonly peers: boolean;
  /** The latency the recording proxy (`ofkit record`) adds at a fixed rate. */
  readonly proxy: boolean;
  /** `--gate`: exit 1 unless every target was measured and met (before a release; never in CI). */
  readonly gate: boolean;
  readonly resultsDir: string;
}

export const USAGE =
  'tsx bench/run-bench.ts [--duration SECONDS] [--warmup SECONDS] [--quick] [--profile | --no-profile] [--skip-memory] [--no-redis] [--no-peers] [--no-proxy] [--gate]';

export class BenchUsageError extends Error {}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      quick: { type: 'boolean', default: false },
      profile: { type: 'boolean', default: false },
      'no-profile': { type: 'boolean', default: false },
      'skip-memory': { type: 'boolean', default: false },
      'no-redis': { type: 'boolean', default: false },
      'no-peers': { type: 'boolean', default: false },
      'no-proxy': { type: 'boolean', default: false },
      gate: { type: 'boolean', default: false },
    },
    strict: true,
  });
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    throw new BenchUsageError((error as Error).message);
  }
  const duration = values.duration === undefined ? (values.quick ? 1 : 2) : Number(values.duration);
  if (!Number.isFinite(duration) || duration <= 0 || duration > 60) {
    throw new BenchUsageError(`--duration must be a number of seconds in (0, 60], got "${values.duration}"`);
  }
  const warmup = values.warmup === undefined ? (values.quick ? 0.25 : 0.5) : Number(values.warmup);
  if (!Number.isFinite(warmup) || warmup < 0 || warmup > 30) {
    throw new BenchUsageError(`--warmup must be a number of seconds in [0, 30], got "${values.warmup}"`);
  }
  if (values.profile && values['no-profile'])
    throw new BenchUsageError('--profile and --no-profile exclude each other');
  return Object.freeze({
    durationSeconds: duration,
    warmupSeconds: warmup,
    connections: 20,
    profile: values.profile ? 'always' : values['no-profile'] ? 'never' : 'auto',
    memory: !values['skip-memory'],
    transactions: 150,
    redis: !values['no-redis'],
    peers: !values['no-peers'],
    proxy: !values['no-proxy'],
    gate: values.gate,
    resultsDir: resolve(import.meta.dirname, 'results'),
  });
}
