/**
 * The client judge's test bench: the simulator served over HTTP on loopback (every response checked
 * against its document), a fake machine time the clients' fake sleeps move (no test waits on the wall
 * clock), a webhook receiver whose behaviour each test chooses, and the judge's report by rule.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { basicAuthorization } from '../../openapi/config/api-keys.js';
import { AUTH_REFUSALS } from '../src/judge/auth-refusals.js';
import type { RuleVerdict, Timing } from '../src/judge/client-rules.js';
import { type JudgedLog, judge } from '../src/judge/judge.js';
import type { Simulator, SimulatorOptions } from '../src/simulator.js';
import { type StartedSimulator, startSimulator } from '../src/start-simulator.js';
import type { Store } from '../src/store/store.js';
import { contractCheckedExchange, FIXED_NOW, TEST_KEYS } from './contract-checked-simulator.js';
import { startRoundRobin } from './round-robin-balancer.js';

export const KEY = TEST_KEYS[0]!;
export const AUTH = basicAuthorization(KEY.secretId, KEY.secretPassword);
export const BEARER = 'receiver-bearer-token';

export interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary members; the bench validated them
  body: any;
}

/** What the webhook receiver does with a delivery: its status for the payload and Authorization. */
export type ReceiverBehaviour = (
  payload: Record<string, unknown>,
  authorization: string | undefined,
) => number;

export interface JudgeBench {
  simulator: Simulator;
  base: string;
  receiverUrl: string;
  /** The receiver's behaviour (default: 2xx with the bearer, 401 without). */
  receiver: { behaviour: ReceiverBehaviour; seen: Record<string, unknown>[] };
  /** The fake machine time: a client's "sleep" moves it. */
  sleep(milliseconds: number): Promise<void>;
  api(
    method: string,
    pathAndQuery: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Answer>;
  control(method: string, path: string, body?: unknown): Promise<Answer>;
  /** Behind the balancer (several replicas): how many requests each replica was sent; else []. */
  servedByReplica: readonly number[];
  /**
   * Waits for the deliveries in flight, then the judge's verdicts by rule on what came after the last
   * reset: each test case resets first and is judged alone (the judge's report keeps every part).
   */
  verdicts(timing?: Timing): Promise<Record<string, RuleVerdict>>;
  /** The log of the test key's tenant after the last reset, as the judge reads it (a test case's own). */
  sinceLastReset(): Promise<JudgedLog>;
  close(): Promise<void>;
}

export const refusesWithoutBearer: ReceiverBehaviour = (_payload, authorization) =>
  authorization === `Bearer ${BEARER}` ? 200 : 401;

async function startReceiver(state: JudgeBench['receiver']): Promise<{ server: Server; url: string }> {
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    for await (const chunk of request) text += chunk;
    const payload = JSON.parse(text) as Record<string, unknown>;
    state.seen.push(payload);
    response.writeHead(state.behaviour(payload, request.headers.authorization)).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks` };
}

export interface JudgeBenchOptions extends Pick<SimulatorOptions, 'judgeProbes'> {
  /**
   * One replica per store (stores that share state), each request to the next replica in turn behind
   * a load balancer; default: one simulator on its own memory store.
   */
  replicas?: readonly Store[];
}

/** Several started simulators seen as one: the first's core, every replica's deliveries awaited. */
function oneOf(replicas: readonly StartedSimulator[]): Simulator {
  const first = replicas[0]!.simulator;
  const idle = async () => {
    await Promise.all(replicas.map((replica) => replica.simulator.webhooks.idle()));
  };
  return { ...first, webhooks: { ...first.webhooks, idle } };
}

export async function startJudgeBench(
  seed = 'judge-seed',
  options: JudgeBenchOptions = {},
): Promise<JudgeBench> {
  let realTime = FIXED_NOW;
  const { replicas: stores = [undefined], ...simulatorOptions } = options;
  const replicas: StartedSimulator[] = [];
  for (const store of stores) {
    replicas.push(
      await startSimulator({
        seed,
        environment: 'production',
        keys: TEST_KEYS,
        realTime: () => realTime,
        // No real-time ticker: the fake machine time moves only when a client sleeps.
        tickMs: 0,
        onExchange: contractCheckedExchange(),
        ...(store && { store }),
        ...simulatorOptions,
      }),
    );
  }
  const balancer = replicas.length > 1 ? await startRoundRobin(replicas.map((r) => r.url)) : undefined;
  const simulator = oneOf(replicas);
  const base = balancer?.url ?? replicas[0]!.url;
  const receiver = { behaviour: refusesWithoutBearer, seen: [] as Record<string, unknown>[] };
  const hooks = await startReceiver(receiver);
  async function api(
    method: string,
    pathAndQuery: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) {
    const response = await fetch(`${base}${pathAndQuery}`, {
      method,
      headers: {
        authorization: AUTH,
        ...(body !== undefined && { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined };
  }
  async function sinceLastReset(): Promise<JudgedLog> {
    await simulator.webhooks.idle();
    const observed = await simulator.judge!.observations(KEY.secretId);
    const after = observed.resets.at(-1) ?? 0;
    const afterReset = (entry: { seq: number }) => entry.seq > after;
    return {
      requests: observed.requests.filter((r) => afterReset(r.entry)),
      deliveries: observed.deliveries.filter(afterReset),
      dropped: observed.dropped,
      // Counted apart from the log, per key id (CLIENT-NO-RETRY-4XX); a reset starts them afresh.
      refusals: simulator.tenant(KEY.secretId).local(AUTH_REFUSALS).list(),
    };
  }
  return {
    simulator,
    base,
    receiverUrl: hooks.url,
    receiver,
    sleep: async (milliseconds) => {
      realTime += milliseconds;
    },
    api,
    control: (method, path, body) => api(method, path, body),
    servedByReplica: balancer?.served ?? [],
    sinceLastReset,
    async verdicts(timing = 'real') {
      const report = judge(KEY.secretId, await sinceLastReset(), timing);
      return Object.fromEntries(report.verdicts.map((v) => [v.rule, v]));
    },
    async close() {
      hooks.server.closeAllConnections();
      await balancer?.close();
      await Promise.all([
        ...replicas.map((replica) => replica.close()),
        new Promise((done) => hooks.server.close(done)),
      ]);
    },
  };
}
