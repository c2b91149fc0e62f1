/**
 * Starts the three servers of the benchmark as children, probes each scenario once on each (a
 * benchmark of 4xx answers is worthless, so a non-2xx probe stops the run), and sizes the bare
 * server's bodies after the simulator's answers.
 */
import { resolve } from 'node:path';
import type { ServerName } from '../report/targets.js';
import type { BareRoute } from '../servers/bare-server.js';
import { type ChildServer, REPO_ROOT, startChild, tsxArgs } from '../servers/child-process.js';
import type { ReadyInfo } from '../servers/child-protocol.js';
import { type Probe, probe } from './run-load.js';
import { buildScenarios, pathOf, type Scenario, TARGET_SCENARIO } from './scenarios.js';

export const OPENAPI_BUNDLE = 'openapi/generated/openapi.json';
const START_TIMEOUT_MS = 180_000;

export interface BenchServers {
  servers: Record<ServerName, ChildServer>;
  scenarios: Scenario[];
  /** `${server} ${scenario}` -> the probe's answer. */
  probes: Map<string, Probe>;
  /** What the reader must know to read the numbers (body sizes, which path answered). */
  notes: string[];
}

const PRISM_READY = /Prism is listening on (http:\/\/[\d.]+:\d+)/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: Prism may colour its log lines
const ANSI_COLOUR = /\u001b\[[0-9;]*m/g;

/** Prism prints the port it got from the OS (`-p 0`) in its start line. */
function prismReady(line: string): ReadyInfo | undefined {
  const url = PRISM_READY.exec(line.replace(ANSI_COLOUR, ''))?.[1];
  return url === undefined ? undefined : { url };
}

export function startSimulator(
  transactions: number,
  extraArgs: readonly string[] = [],
): Promise<ChildServer> {
  return startChild({
    name: 'simulator',
    command: process.execPath,
    args: [
      ...tsxArgs('bench/servers/simulator-server.ts'),
      '--transactions',
      String(transactions),
      ...extraArgs,
    ],
    timeoutMs: START_TIMEOUT_MS,
  });
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

/** Probes every scenario on one server; throws on any answer that is not 2xx. */
async function probeAll(name: ServerName, server: ChildServer, scenarios: readonly Scenario[]) {
  const probes = new Map<string, Probe>();
  for (const scenario of scenarios) {
    const answer = await probe(server.url, scenario);
    if (answer.status < 200 || answer.status > 299) {
      throw new Error(
        `${name} answered ${answer.status} to ${scenario.method} ${scenario.path}; a benchmark of non-2xx answers is worthless:\n${answer.body.slice(0, 500)}`,
      );
    }
    probes.set(`${name} ${scenario.id}`, answer);
  }
  return probes;
}

/** Whether the simulator's list page came from the seeded store or from its Prism fallback. */
function listSource(answer: Probe | undefined, seeded: number): string {
  const page = JSON.parse(answer?.body ?? '{}') as { count?: number; results?: unknown[] };
  if (page.count === seeded && page.results?.length === 100)
    return 'answered from the seeded store (stateful)';
  return `NOT answered from the seeded store (count ${page.count}, ${page.results?.length} results): listTransactions has no stateful handler, so the simulator's in-process Prism fallback answers from the document's examples`;
}

export async function startBenchServers(transactions: number): Promise<BenchServers> {
  const [simulator, prism] = await Promise.all([startSimulator(transactions), startPrism()]);
  const scenarios = buildScenarios(String(simulator.info.linkId));
  const probes = await probeAll('simulator', simulator, scenarios);
  const routes = scenarios.map((scenario) => {
    const answer = probes.get(`simulator ${scenario.id}`)!;
    return { method: scenario.method, path: pathOf(scenario), status: answer.status, bytes: answer.bytes };
  });
  const bare = await startBare(routes);
  for (const [key, answer] of await probeAll('prism', prism, scenarios)) probes.set(key, answer);
  for (const [key, answer] of await probeAll('bare', bare, scenarios)) probes.set(key, answer);
  const sizes = (id: string) =>
    (['simulator', 'prism', 'bare'] as const)
      .map((s) => `${s} ${probes.get(`${s} ${id}`)?.bytes} B`)
      .join(', ');
  const notes = [
    `simulator ${TARGET_SCENARIO}: ${listSource(probes.get(`simulator ${TARGET_SCENARIO}`), transactions)}`,
    ...scenarios.map(
      (s) => `body sizes ${s.id}: ${sizes(s.id)} (Prism answers from the document's examples)`,
    ),
  ];
  return { servers: { simulator, prism, bare }, scenarios, probes, notes };
}
