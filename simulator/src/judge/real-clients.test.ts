/**
 * Real clients judged on one run that meets every situation: the project's typed client
 * (`openapi/client`, no violation expected) and the provider's official Node SDK (`belvo`, pinned),
 * whose verdicts are printed, whatever they are. The typed client's sleeps move the fake machine time
 * by the waits it asks for, so its retries are judged on `real` timing without waiting.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type ClientDriver,
  runEverySituation,
  typedClientDriver,
} from '../../test-support/every-situation.js';
import { type JudgeBench, KEY, startJudgeBench } from '../../test-support/judge-harness.js';
import type { RuleVerdict } from './client-rules.js';

/** The SDK is CommonJS with a default export and ships no types. */
// biome-ignore lint/suspicious/noExplicitAny: the SDK ships no types
const BelvoClient: any = createRequire(import.meta.url)('belvo').default;

let bench: JudgeBench;
// Starting a simulator (and its Prism fallback) takes seconds on a loaded machine.
beforeAll(async () => {
  bench = await startJudgeBench('real-clients-seed');
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
});

function print(name: string, notes: string[], verdicts: Record<string, RuleVerdict>): void {
  const lines = Object.values(verdicts).map(
    (v) => `  ${v.verdict.padEnd(13)} ${v.rule.padEnd(26)} ${v.summary}`,
  );
  console.log(`${name}\n  run: ${notes.join('; ')}\n${lines.join('\n')}`);
}

/**
 * The SDK throws on every non-2xx: a RequestError with `statusCode` (detail, create, delete) or axios's
 * own error with `response` (lists); the application catches both.
 */
async function sdkStatus<T>(call: () => Promise<T>): Promise<{ status: number; body: unknown }> {
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

async function sdkDriver(): Promise<ClientDriver> {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK ships no types
  const client: any = new BelvoClient(KEY.secretId, KEY.secretPassword, bench.base);
  await client.connect();
  const status = async (call: () => Promise<unknown>) => (await sdkStatus(call)).status;
  return {
    listLinks: (query) => status(() => client.links.list({ filters: query })),
    listInstitutionsByTwo: () => status(() => client.institutions.list({ filters: { page_size: 2 } })),
    registerLink: (body) =>
      sdkStatus(() => client.links.register(body.institution, body.username, body.password)),
    resumeLink: (session, token, link) => status(() => client.links.resume(session, token, link)),
    listTransactionsWithoutLink: () => status(() => client.transactions.list()),
    // The SDK has no refresh: the application sends it through the SDK's own HTTP session.
    refreshLink: (id) => status(() => client.session.session.post(`/api/links/${id}/refresh/`, {})),
    deleteLink: (id) => status(() => client.links.delete(id)),
    readForLink: (path, link) => {
      const resource = {
        '/api/accounts/': 'accounts',
        '/api/transactions/': 'transactions',
        '/api/owners/': 'owners',
      }[path]!;
      return status(() => client[resource].list({ filters: { link } }));
    },
  };
}

describe('the typed client (openapi/client) on a run that meets every situation', () => {
  it('violates no client rule and meets every one', async () => {
    const notes = await runEverySituation(bench, typedClientDriver(bench));
    const verdicts = await bench.verdicts('real');
    print(
      'typed client (openapi/client), timing real (fake machine time moved by its sleeps)',
      notes,
      verdicts,
    );
    const judged = Object.values(verdicts).map((v) => [
      v.rule,
      v.verdict,
      v.verdict === 'violated' ? v.evidence : [],
    ]);
    expect(judged.filter(([, verdict]) => verdict !== 'followed')).toEqual([]);
  });
});

describe('the official Node SDK (belvo 0.28.0) on the same run', () => {
  it('is judged, its verdicts printed (violations are reported, not hidden)', async () => {
    const notes = await runEverySituation(bench, await sdkDriver());
    const verdicts = await bench.verdicts('real');
    print('official SDK belvo 0.28.0, timing real', notes, verdicts);
    // What the SDK does (README "Judge your client"): no retry at all, so a 50x and the Too Many
    // Sessions error surface at once; every other rule is met by the same application around it.
    const violated = Object.values(verdicts)
      .filter((v) => v.verdict === 'violated')
      .map((v) => v.rule);
    expect(violated).toEqual(['CLIENT-RETRY-5XX', 'CLIENT-TOO-MANY-SESSIONS']);
    expect(Object.values(verdicts).filter((v) => v.verdict === 'not_exercised')).toEqual([]);
  });
});
