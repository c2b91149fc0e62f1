/** A server of the report as the load phase sees it: where to reach it, its processes, what it is asked. */
import type { ServerName } from '../report/targets.js';
import type { ChildServer } from '../servers/child-process.js';
import type { MeasuredServer } from './rounds.js';
import { type Probe, probe, runLoad } from './run-load.js';
import { runParallelLoad } from './run-parallel-load.js';
import type { Scenario } from './scenarios.js';

/** One row group of the report: a server, reached at one URL, or at several loaded at once (replicas). */
export interface BenchTarget extends MeasuredServer {
  name: ServerName;
  urls: string[];
  /** Spawn to ready, ms (of the last replica for several). */
  readyMs: number;
  /** The scenarios this server is measured in (a peer: the page, at its own path). */
  scenarios: Scenario[];
}

/** A single autocannon on one URL, or one per replica at once (their connections split). */
function loader(urls: readonly string[]): BenchTarget['load'] {
  const [url, ...others] = urls;
  if (url === undefined) throw new Error('a bench target needs a URL');
  return (scenario, settings) =>
    others.length === 0 ? runLoad(url, scenario, settings) : runParallelLoad(urls, scenario, settings);
}

export function benchTarget(
  name: ServerName,
  children: readonly ChildServer[],
  scenarios: Scenario[],
  redisPid?: number,
): BenchTarget {
  const urls = children.map((child) => child.url);
  return {
    name,
    urls,
    readyMs: Math.max(...children.map((child) => child.readyMs)),
    scenarios,
    pids: children.map((child) => child.pid),
    ...(redisPid !== undefined && { redisPid }),
    load: loader(urls),
  };
}

/** Probes every scenario on every URL of a server; throws on any answer that is not 2xx. */
export async function probeAll(target: BenchTarget): Promise<Map<string, Probe>> {
  const probes = new Map<string, Probe>();
  for (const url of target.urls) {
    for (const scenario of target.scenarios) {
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
