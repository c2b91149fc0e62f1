/**
 * Starts the servers of the benchmark as children, probes each scenario once on each (a benchmark of
 * 4xx answers is worthless, so a non-2xx probe stops the run), and sizes the bare server's bodies
 * after the simulator's answers. With Redis: one more simulator on a RedisStore, and a second replica
 * on the same Redis (start-redis-servers.ts).
 */
import { resolve } from 'node:path';
import type { ServerName } from '../report/targets.js';
import type { BareRoute } from '../servers/bare-server.js';
import { type ChildServer, REPO_ROOT, startChild, tsxArgs } from '../servers/child-process.js';
import type { ReadyInfo } from '../servers/child-protocol.js';
import { type Probe, probe } from './run-load.js';
import { buildScenarios, pathOf, type Scenario, TARGET_SCENARIO } from './scenarios.js';
import {
  type RedisReplicas,
  redisSkipReason,
  startRedisReplicas,
  stopBenchRedis,
} from './start-redis-servers.js';
import { START_TIMEOUT_MS, startSimulator } from './start-simulator-child.js';

export const OPENAPI_BUNDLE = 'openapi/generated/openapi.json';

/** One row of the report: a server, reached at one URL, or at several loaded at once (replicas). */
export interface BenchTarget {
  name: ServerName;
  urls: string[];
  /** Spawn to ready, ms (of the last replica for several). */
  readyMs: number;
}

export interface BenchServers {
  /** In the report's order. */
  targets: BenchTarget[];
  scenarios: Scenario[];
  /** `${server} ${scenario}` -> the probe's answer (of the last URL for replicas: the one that did not seed). */
  probes: Map<string, Probe>;
  /** What the reader must know to read the numbers (body sizes, which path answered, Redis). */
  notes: string[];
  /** Stops every child, then the redis-server. */
  stop(): Promise<void>;
}

const PRISM_READY = /Prism is listening on (http:\/\/[\d.]+:\d+)/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: Prism may colour its log lines
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** Prism prints the port it got from the OS (`-p 0`) in its start line. */
function prismReady(line: string): ReadyInfo | undefined {
  const url = PRISM_READY.exec(line.replace(ANSI_COLOUR, ''))?.[1];
  return url === undefined ? undefined : { url };
}

function startPrism(): Promise<ChildServer> {
  return startChild({
    name: 'prism',
    command: process.execPath,
    args: [
      resolve(REPO_ROOT, 'node_modules/.bin/prism'),
      'mock',
      OPENAPI_BUNDLE,
      '-p',
      '0',
      '-h',
      '127.0.0.1',
    ],
    ready: prismReady,
    timeoutMs: START_TIMEOUT_MS,
  });
}

function startBare(routes: readonly BareRoute[]): Promise<ChildServer> {
  return startChild({
    name: 'bare',
    command: process.execPath,
    args: [...tsxArgs('bench/servers/bare-server-main.ts'), '--routes', JSON.stringify(routes)],
    timeoutMs: START_TIMEOUT_MS,
  });
}

/** Probes every scenario on every URL of a server; throws on any answer that is not 2xx. */
async function probeAll(target: BenchTarget, scenarios: readonly Scenario[]) {
  const probes = new Map<string, Probe>();
  for (const url of target.urls) {
    for (const scenario of scenarios) {
      const answer = await probe(url, scenario);
      if (answer.status < 200 || answer.status > 299) {
        throw new Error(
          `${target.name} (${url}) answered ${answer.status} to ${scenario.method} ${scenario.path}; a benchmark of non-2xx answers is worthless:\n${answer.body.slice(0, 500)}`,
        );
      }
      probes.set(`${target.name} ${scenario.id}`, answer);
    }
  }
  return probes;
}

/** Whether a simulator's list page came from the seeded store or from its Prism fallback. */
function listSource(answer: Probe | undefined, seeded: number): string {
  const page = JSON.parse(answer?.body ?? '{}') as { count?: number; results?: unknown[] };
  if (page.count === seeded && page.results?.length === 100)
    return 'answered from the seeded store (stateful)';
  return `NOT answered from the seeded store (count ${page.count}, ${page.results?.length} results): listTransactions has no stateful handler, so the simulator's in-process Prism fallback answers from the document's examples`;
}

const target = (name: ServerName, children: readonly ChildServer[]): BenchTarget => ({
  name,
  urls: children.map((child) => child.url),
  readyMs: Math.max(...children.map((child) => child.readyMs)),
});

function redisTargets({ replicas }: RedisReplicas): BenchTarget[] {
  return [target('simulator-redis', [replicas[0]]), target('simulator-redis-x2', replicas)];
}

function redisNotes(redis: RedisReplicas | undefined, skipped: string | undefined): string[] {
  if (redis === undefined) return [skipped ?? 'Redis servers not started'];
  return [
    `simulator-redis: one simulator child on a RedisStore (${redis.redis.url}, redis-server started by the bench in a temporary directory, no persistence); it seeded the bench data into Redis`,
    'simulator-redis-x2: that child and a second one on the same Redis, started with --no-seed (it serves the data the first wrote); two autocannon instances at once, half of the connections each; req/s summed, p50/p99/max from the two latency histograms merged',
    'simulator-redis-x2 runs after simulator-redis on the same Redis: the links its post-link run created are still there (the list and get scenarios read one link, whatever else is stored)',
  ];
}

export async function startBenchServers(
  transactions: number,
  options: { redis: boolean },
): Promise<BenchServers> {
  const skipped = redisSkipReason(options.redis);
  if (skipped !== undefined) console.log(skipped);
  const children: ChildServer[] = [];
  const track = async (starting: Promise<ChildServer>) => {
    const child = await starting;
    children.push(child);
    return child;
  };
  const stop = async () => {
    await Promise.all(children.map((child) => child.stop()));
    await stopBenchRedis();
  };
  try {
    const [simulator, prism, redis] = await Promise.all([
      track(startSimulator(transactions)),
      track(startPrism()),
      skipped === undefined ? startRedisReplicas(transactions) : Promise.resolve(undefined),
    ]);
    if (redis) children.push(...redis.replicas);
    const scenarios = buildScenarios(String(simulator.info.linkId));
    const first = [target('simulator', [simulator]), ...(redis ? redisTargets(redis) : [])];
    const probes = new Map<string, Probe>();
    for (const server of first)
      for (const [key, answer] of await probeAll(server, scenarios)) probes.set(key, answer);
    const routes = scenarios.map((scenario) => {
      const answer = probes.get(`simulator ${scenario.id}`)!;
      return { method: scenario.method, path: pathOf(scenario), status: answer.status, bytes: answer.bytes };
    });
    const bare = await track(startBare(routes));
    const baselines = [target('prism', [prism]), target('bare', [bare])];
    for (const server of baselines)
      for (const [key, answer] of await probeAll(server, scenarios)) probes.set(key, answer);
    const targets = [...first, ...baselines];
    const sizes = (id: string) =>
      targets.map((s) => `${s.name} ${probes.get(`${s.name} ${id}`)?.bytes} B`).join(', ');
    const notes = [
      ...first.map(
        (s) =>
          `${s.name} ${TARGET_SCENARIO}${s.urls.length > 1 ? ' (replica 2, which did not seed)' : ''}: ${listSource(probes.get(`${s.name} ${TARGET_SCENARIO}`), transactions)}`,
      ),
      ...scenarios.map(
        (s) => `body sizes ${s.id}: ${sizes(s.id)} (Prism answers from the document's examples)`,
      ),
      ...redisNotes(redis, skipped),
    ];
    return { targets, scenarios, probes, notes, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
