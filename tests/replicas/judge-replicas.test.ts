/**
 * The client judge behind a load balancer: one client's run sent through two simulator replicas on one
 * redis-server, each request to the other replica in turn, is judged exactly as the same run through
 * one replica: the log (requests and deliveries) is the store's, so a retry that lands on the other
 * replica is still a retry. Three clients: the typed client (follows every rule), the official SDK
 * (retries nothing) and a careless script (breaks what it can). Every response is checked against the
 * document (the judge bench's onExchange); the machine time is the bench's fake one.
 */
import { createRequire } from 'node:module';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuleVerdict } from '../../simulator/src/judge/client-rules.js';
import { createJudgeLog } from '../../simulator/src/judge/judge-log.js';
import type { LoggedRequest } from '../../simulator/src/judge/logged-request.js';
import { MAX_REQUESTS } from '../../simulator/src/judge/request-log.js';
import { RedisStore } from '../../simulator/src/store/redis-store.js';
import {
  type ClientDriver,
  runEverySituation,
  typedClientDriver,
} from '../../simulator/test-support/every-situation.js';
import { type JudgeBench, KEY, startJudgeBench } from '../../simulator/test-support/judge-harness.js';
import {
  REDIS_SKIP_REASON,
  type RunningRedis,
  skipRedis,
  startRedisServer,
} from '../../simulator/test-support/redis-server.js';

// biome-ignore lint/suspicious/noExplicitAny: the SDK ships no types
const BelvoClient: any = createRequire(import.meta.url)('belvo').default;

const title = skipRedis
  ? `the client judge across replicas (skipped: ${REDIS_SKIP_REASON})`
  : 'the client judge across replicas';
if (skipRedis) console.warn(REDIS_SKIP_REASON);

/** What must not differ between the topologies: each rule's verdict, summary and amount of evidence. */
interface Judged {
  requests: number;
  deliveries: number;
  verdicts: Record<string, Pick<RuleVerdict, 'verdict' | 'summary'> & { evidence: number }>;
}

type Run = (bench: JudgeBench) => Promise<unknown>;

describe.skipIf(skipRedis)(title, () => {
  let redis: RunningRedis;
  let runs = 0;

  beforeAll(async () => {
    redis = await startRedisServer();
  }, 30_000);
  afterAll(() => redis?.stop());

  /** The run through `count` replicas sharing one fresh prefix of the Redis, judged. */
  async function judged(count: number, run: Run): Promise<Judged> {
    const prefix = `judge-run-${++runs}:`;
    const stores = Array.from({ length: count }, () => new RedisStore({ url: redis.url, prefix }));
    await Promise.all(stores.map((store) => store.connect()));
    const bench = await startJudgeBench('judge-replicas', { replicas: stores });
    try {
      await run(bench);
      const verdicts = await bench.verdicts('real');
      const report = await bench.control('GET', '/_ofkit/judge/');
      if (count > 1) {
        // Each request went to the other replica: they served the run in halves.
        const [first = 0, second = 0] = bench.servedByReplica;
        expect(Math.abs(first - second)).toBeLessThanOrEqual(1);
        expect(first + second).toBeGreaterThan(20);
      }
      return {
        requests: report.body.requests,
        deliveries: report.body.deliveries,
        verdicts: Object.fromEntries(
          Object.values(verdicts).map((v) => [
            v.rule,
            { verdict: v.verdict, summary: v.summary, evidence: v.evidence.length },
          ]),
        ),
      };
    } finally {
      await bench.close();
      await Promise.all(stores.map((store) => store.close()));
    }
  }

  async function sameThroughTwo(run: Run): Promise<Judged> {
    const one = await judged(1, run);
    const two = await judged(2, run);
    expect(two).toEqual(one);
    expect(one.requests).toBeGreaterThan(10);
    return one;
  }

  it('the log of the largest requests stays under 14 MB in Redis too', async () => {
    const store = new RedisStore({ url: redis.url, prefix: 'judge-bound:' });
    await store.connect();
    const redisClient = createClient({ url: redis.url });
    await redisClient.connect();
    try {
      const log = createJudgeLog({
        store,
        onError: (error) => {
          throw error;
        },
      });
      for (let n = 0; n < MAX_REQUESTS + 500; n += 1) log.request('t', { ...LARGEST, at: n });
      const { requests, dropped } = await log.observations('t');
      expect(requests.length).toBeGreaterThan(3500);
      expect(requests.length + dropped).toBe(MAX_REQUESTS + 500);
      const keys = await redisClient.keys('judge-bound:*');
      const bytes = await Promise.all(keys.map((key) => redisClient.memoryUsage(key, { SAMPLES: 0 })));
      const used = bytes.reduce<number>((sum, key) => sum + (key ?? 0), 0);
      console.log(`${requests.length} requests kept in Redis: ${used} bytes`);
      expect(used).toBeLessThan(14_000_000);
    } finally {
      await redisClient.close();
      await store.close();
    }
  }, 60_000);

  it('the typed client: every rule followed through two replicas as through one', async () => {
    const one = await sameThroughTwo((bench) => runEverySituation(bench, typedClientDriver(bench)));
    expect(Object.values(one.verdicts).filter((v) => v.verdict !== 'followed')).toEqual([]);
    expect(one.deliveries).toBeGreaterThan(0);
  }, 120_000);

  it('the official SDK: the same two violations through two replicas as through one', async () => {
    const one = await sameThroughTwo(async (bench) => runEverySituation(bench, await sdkDriver(bench)));
    const violated = Object.entries(one.verdicts).filter(([, v]) => v.verdict === 'violated');
    expect(violated.map(([rule]) => rule)).toEqual(['CLIENT-RETRY-5XX', 'CLIENT-TOO-MANY-SESSIONS']);
  }, 120_000);

  it('a careless client: the same violations through two replicas as through one', async () => {
    const one = await sameThroughTwo(carelessRun);
    const violated = Object.entries(one.verdicts).filter(([, v]) => v.verdict === 'violated');
    expect(violated.map(([rule]) => rule).sort()).toEqual([
      'CLIENT-DELETE-RATE',
      'CLIENT-MFA-RESUME',
      'CLIENT-NO-RETRY-4XX',
      'CLIENT-NO-SECRETS',
      'CLIENT-PAGINATION-NEXT',
      'CLIENT-REFRESH-COOLDOWN',
      'CLIENT-RETRY-5XX',
      'CLIENT-WEBHOOK-ACK',
      'CLIENT-WEBHOOK-FOLLOW-UP',
    ]);
  }, 120_000);
});

/** The SDK throws on every non-2xx; the application catches it (as real-clients.test.ts does). */
async function sdkStatus(call: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    return { status: 200, body: await call() };
  } catch (error) {
    const { statusCode, detail, response } = error as {
      statusCode?: number;
      detail?: unknown;
      response?: { status: number; data: unknown };
    };
    if (statusCode !== undefined) return { status: statusCode, body: detail };
    if (response !== undefined) return { status: response.status, body: response.data };
    throw error;
  }
}

async function sdkDriver(bench: JudgeBench): Promise<ClientDriver> {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK ships no types
  const client: any = new BelvoClient(KEY.secretId, KEY.secretPassword, bench.base);
  await client.connect();
  const status = async (call: () => Promise<unknown>) => (await sdkStatus(call)).status;
  const resources: Record<string, string> = {
    '/api/accounts/': 'accounts',
    '/api/transactions/': 'transactions',
    '/api/owners/': 'owners',
  };
  return {
    listLinks: (query) => status(() => client.links.list({ filters: query })),
    listInstitutionsByTwo: () => status(() => client.institutions.list({ filters: { page_size: 2 } })),
    registerLink: (body) =>
      sdkStatus(() => client.links.register(body.institution, body.username, body.password)),
    resumeLink: (session, token, link) => status(() => client.links.resume(session, token, link)),
    listTransactionsWithoutLink: () => status(() => client.transactions.list()),
    refreshLink: (id) => status(() => client.session.session.post(`/api/links/${id}/refresh/`, {})),
    deleteLink: (id) => status(() => client.links.delete(id)),
    readForLink: (path, link) => status(() => client[resources[path]!].list({ filters: { link } })),
  };
}

/** A request with a body cut to the 2000 characters kept, a 200-character detail and a digest. */
const LARGEST: LoggedRequest = {
  method: 'POST',
  origin: 'http://127.0.0.1:4010',
  path: '/api/links/',
  query: `q=${'q'.repeat(100)}`,
  operation: 'registerLink',
  sha256: 'f'.repeat(64),
  status: 400,
  code: 'invalid',
  rule: null,
  detail: 'd'.repeat(200),
  at: 0,
  realAt: 0,
  durationMs: 1,
  headers: [['x-service-request-mode', 'async']],
  body: 'b'.repeat(2000),
};

const LINK_BODY = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };

/** A client that breaks every rule it can, each break a step of its own. */
async function carelessRun(bench: JudgeBench): Promise<void> {
  const newLink = async () => (await bench.api('POST', '/api/links/', LINK_BODY)).body.id as string;
  // A receiver that fails the ACCOUNTS deliveries (CLIENT-WEBHOOK-ACK), and no follow-up read ever.
  bench.receiver.behaviour = (payload) => (payload.webhook_type === 'ACCOUNTS' ? 500 : 200);
  await bench.control('PUT', '/_ofkit/webhooks/', { url: bench.receiverUrl });
  await bench.control('POST', '/_ofkit/faults/', { operation_id: 'listInstitutions', status: 500, count: 1 });
  await bench.api('GET', '/api/institutions/');
  for (let i = 0; i < 3; i += 1) await bench.api('GET', '/api/transactions/');
  await bench.api('GET', `/api/institutions/?api_secret=${KEY.secretPassword}`);
  const refreshed = await newLink();
  for (let i = 0; i < 3; i += 1) await bench.api('POST', `/api/links/${refreshed}/refresh/`);
  const doomed: string[] = [];
  for (let i = 0; i < 7; i += 1) doomed.push(await newLink());
  for (const id of doomed) await bench.api('DELETE', `/api/links/${id}/`);
  await bench.control('POST', '/_ofkit/scenarios/', { scenario: 'institution_requires_token', count: 1 });
  const [{ session, link }] = (await bench.api('POST', '/api/links/', LINK_BODY)).body;
  await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 601 });
  await bench.api('PATCH', '/api/links/', { session, token: '123456', link });
  await bench.api('GET', '/api/institutions/?page_size=2');
  await bench.api('GET', '/api/institutions/?page=2');
  await bench.api('GET', '/api/institutions/?page_size=2&page=999');
  await bench.simulator.webhooks.idle();
}
