/**
 * Starts the servers of the benchmark as children, probes each scenario once on each (a benchmark of
 * 4xx answers is worthless, so a non-2xx probe stops the run), and sizes the bare server's bodies
 * after the simulator's answers and the adapter's. With Redis: one more simulator on a RedisStore, and
 * a second replica on the same Redis (start-redis-servers.ts). Then the peers, on the simulator's page.
 */
import { type PeerTargets, startPeerTargets } from '../peers/peer-targets.js';
import type { BareRoute } from '../servers/bare-server.js';
import { type ChildServer, startChild, tsxArgs } from '../servers/child-process.js';
import { type BenchTarget, benchTarget, probeAll } from './bench-target.js';
import type { Probe } from './run-load.js';
import { buildScenarios, CONSTANT_SCENARIO, pathOf, type Scenario, TARGET_SCENARIO } from './scenarios.js';
import {
  type RedisReplicas,
  redisSkipReason,
  startRedisReplicas,
  stopBenchRedis,
} from './start-redis-servers.js';
import { START_TIMEOUT_MS, startSimulator } from './start-simulator-child.js';

export interface BenchServers {
  /** In the report's order. */
  targets: BenchTarget[];
  /** Every scenario, in the order run. */
  scenarios: Scenario[];
  /** `${server} ${scenario}` -> the probe's answer (of the last URL for replicas: the one that did not seed). */
  probes: Map<string, Probe>;
  /** What the reader must know to read the numbers (body sizes, which path answered, Redis, peers). */
  notes: string[];
  /** Peer -> why it is not in this run. */
  notRun: Record<string, string>;
  /** Stops every child, then the redis-server. */
  stop(): Promise<void>;
}

function startBare(routes: readonly BareRoute[]): Promise<ChildServer> {
  return startChild({
    name: 'bare',
    command: process.execPath,
    args: [...tsxArgs('bench/servers/bare-server-main.ts'), '--routes', JSON.stringify(routes)],
    timeoutMs: START_TIMEOUT_MS,
  });
}

function startAdapter(): Promise<ChildServer> {
  return startChild({
    name: 'adapter',
    command: process.execPath,
    args: tsxArgs('bench/servers/adapter-server.ts'),
    timeoutMs: START_TIMEOUT_MS,
  });
}

/** Whether a simulator's list page came from the seeded store or from its Prism fallback. */
function listSource(answer: Probe | undefined, seeded: number): string {
  const page = JSON.parse(answer?.body ?? '{}') as { count?: number; results?: unknown[] };
  if (page.count === seeded && page.results?.length === 100)
    return 'answered from the seeded store (stateful)';
  return `NOT answered from the seeded store (count ${page.count}, ${page.results?.length} results): listTransactions has no stateful handler, so the simulator's in-process Prism fallback answers from the document's examples`;
}

function redisTargets({ redis, replicas }: RedisReplicas, scenarios: Scenario[]): BenchTarget[] {
  return [
    benchTarget('simulator-redis', [replicas[0]], scenarios, redis.pid),
    benchTarget('simulator-redis-x2', replicas, scenarios, redis.pid),
  ];
}

function redisNotes(redis: RedisReplicas | undefined, skipped: string | undefined): string[] {
  if (redis === undefined) return [skipped ?? 'Redis servers not started'];
  return [
    `simulator-redis: one simulator child on a RedisStore (${redis.redis.url}, redis-server started by the bench in a temporary directory, no persistence); it seeded the bench data into Redis; "redis us" is redis-server's CPU per request`,
    'simulator-redis-x2: that child and a second one on the same Redis, started with --no-seed (it serves the data the first wrote); two autocannon instances at once, half of the connections each; req/s summed, p50/p99/max from the two latency histograms merged; CPU of both children',
    'the Redis rows run after simulator in each round on the same Redis: the links the post-link runs created stay there (the list and get scenarios read one link, whatever else is stored)',
  ];
}

/** Bare's routes: every scenario's path answered with the bytes the simulator (or the adapter) sent. */
function bareRoutes(scenarios: readonly Scenario[], probes: Map<string, Probe>): BareRoute[] {
  return scenarios.map((scenario) => {
    const server = scenario.id === CONSTANT_SCENARIO.id ? 'adapter' : 'simulator';
    const answer = probes.get(`${server} ${scenario.id}`)!;
    return { method: scenario.method, path: pathOf(scenario), status: answer.status, bytes: answer.bytes };
  });
}

export async function startBenchServers(
  transactions: number,
  options: { redis: boolean; peers: boolean },
): Promise<BenchServers> {
  const skipped = redisSkipReason(options.redis);
  if (skipped !== undefined) console.log(skipped);
  const children: ChildServer[] = [];
  let peers: PeerTargets | undefined;
  const track = async (starting: Promise<ChildServer>) => {
    const child = await starting;
    children.push(child);
    return child;
  };
  const stop = async () => {
    await Promise.all([...children.map((child) => child.stop()), peers?.stop()]);
    await stopBenchRedis();
  };
  try {
    const [simulator, adapter, redis] = await Promise.all([
      track(startSimulator(transactions)),
      track(startAdapter()),
      skipped === undefined ? startRedisReplicas(transactions) : Promise.resolve(undefined),
    ]);
    if (redis) children.push(...redis.replicas);
    const api = buildScenarios(String(simulator.info.linkId));
    const scenarios = [...api, CONSTANT_SCENARIO];
    const first = [
      benchTarget('simulator', [simulator], api),
      benchTarget('adapter', [adapter], [CONSTANT_SCENARIO]),
      ...(redis ? redisTargets(redis, api) : []),
    ];
    const probes = new Map<string, Probe>();
    for (const server of first) for (const [key, answer] of await probeAll(server)) probes.set(key, answer);
    const bare = benchTarget('bare', [await track(startBare(bareRoutes(scenarios, probes)))], scenarios);
    for (const [key, answer] of await probeAll(bare)) probes.set(key, answer);
    const page = api.find((scenario) => scenario.id === TARGET_SCENARIO)!;
    if (options.peers) peers = await startPeerTargets(probes.get(`simulator ${TARGET_SCENARIO}`)!.body, page);
    for (const [key, answer] of peers?.probes ?? []) probes.set(key, answer);
    const targets = [...first, bare, ...(peers?.targets ?? [])];
    const sizes = (id: string) =>
      targets
        .filter((s) => probes.has(`${s.name} ${id}`))
        .map((s) => `${s.name} ${probes.get(`${s.name} ${id}`)?.bytes} B`)
        .join(', ');
    const notes = [
      ...first
        .filter((s) => s.name !== 'adapter')
        .map(
          (s) =>
            `${s.name} ${TARGET_SCENARIO}${s.urls.length > 1 ? ' (replica 2, which did not seed)' : ''}: ${listSource(probes.get(`${s.name} ${TARGET_SCENARIO}`), transactions)}`,
        ),
      ...scenarios.map((s) => `body sizes ${s.id}: ${sizes(s.id)}`),
      ...redisNotes(redis, skipped),
      ...(peers?.notes ?? ['peers skipped (--no-peers)']),
    ];
    return { targets, scenarios, probes, notes, notRun: peers?.notRun ?? {}, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
