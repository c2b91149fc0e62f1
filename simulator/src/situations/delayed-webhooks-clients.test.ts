/**
 * Webhooks delayed and interleaved against two workers written as integrators write them. The interface
 * promises neither when a notification arrives nor in which order. A careless worker fills its accounts
 * from the ACCOUNTS event and expects it before the TRANSACTIONS event of the same link: it passes while
 * events come in the order raised and fails when they are interleaved. A careful one treats each event as
 * a hint, reads what it lacks itself, and passes both; and it reads the data before any event arrives.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BEARER, type JudgeBench, startJudgeBench } from '../../test-support/judge-harness.js';

let bench: JudgeBench;
beforeAll(async () => {
  bench = await startJudgeBench('delayed-webhooks-seed');
}, 60_000);
afterAll(() => bench.close());
beforeEach(async () => {
  expect((await bench.control('POST', '/_ofkit/reset/')).status).toBe(204);
  const frozen = { now: '2026-11-02T12:00:00.000Z', frozen: true };
  expect((await bench.control('PUT', '/_ofkit/clock/', frozen)).status).toBe(200);
  bench.receiver.behaviour = () => 200;
  bench.receiver.seen.length = 0;
});

const configure = (delivery: Record<string, unknown>) =>
  bench.control('PUT', '/_ofkit/webhooks/', { url: bench.receiverUrl, bearer_token: BEARER, ...delivery });

/** The worker's day: a recurrent link registered, then the events handled as they came. */
async function worker(careful: boolean): Promise<void> {
  const registered = await bench.api('POST', '/api/links/', {
    institution: 'ofbank_br_retail',
    username: '76109277673',
    password: 'secret',
    access_mode: 'recurrent',
  });
  const link = registered.body.id as string;
  const accounts = new Set<string>();
  const readAccounts = async () => {
    for (const account of (await bench.api('GET', `/api/accounts/?link=${link}`)).body.results)
      accounts.add(account.id);
  };
  // The careful worker reads what the registration made before it hears of it.
  if (careful) await readAccounts();
  await bench.control('POST', '/_ofkit/clock/advance/', { seconds: 600 });
  await bench.simulator.webhooks.idle();
  for (const event of bench.receiver.seen) {
    if (event.webhook_code !== 'historical_update') continue;
    if (event.webhook_type === 'ACCOUNTS') await readAccounts();
    if (event.webhook_type === 'OWNERS') await bench.api('GET', `/api/owners/?link=${link}`);
    if (event.webhook_type !== 'TRANSACTIONS') continue;
    const page = await bench.api('GET', `/api/transactions/?link=${link}`);
    const unknown = page.body.results.filter((t: { account: { id: string } }) => !accounts.has(t.account.id));
    if (unknown.length > 0 && careful) await readAccounts();
    else if (unknown.length > 0) throw new Error(`${unknown.length} transactions of accounts not seen yet`);
  }
}

const outcome = (careful: boolean) =>
  worker(careful).then(
    () => 'passed',
    (error: Error) => error.message,
  );

describe('webhooks delayed and interleaved against workers', () => {
  it('events in the order raised: both workers pass', async () => {
    await configure({ delivery_delay_seconds: 0 });
    expect(await outcome(false)).toBe('passed');
    await bench.control('POST', '/_ofkit/reset/');
    bench.receiver.seen.length = 0;
    await configure({ delivery_delay_seconds: 0 });
    expect(await outcome(true)).toBe('passed');
  });
  it('held back and interleaved: the careless worker fails, the careful one passes and follows the rules', async () => {
    await configure({ delivery_delay_seconds: 120, delivery_order: 'interleaved' });
    expect(await outcome(false)).toMatch(/transactions of accounts not seen yet/);
    await bench.control('POST', '/_ofkit/reset/');
    bench.receiver.seen.length = 0;
    await bench.control('PUT', '/_ofkit/clock/', { now: '2026-11-02T12:00:00.000Z', frozen: true });
    await configure({ delivery_delay_seconds: 120, delivery_order: 'interleaved' });
    expect(await outcome(true)).toBe('passed');
    const types = bench.receiver.seen.map((e) => e.webhook_type);
    expect(types.indexOf('TRANSACTIONS')).toBeLessThan(types.indexOf('ACCOUNTS'));
    const verdicts = await bench.verdicts('order-only');
    expect(Object.values(verdicts).filter((v) => v.verdict === 'violated')).toEqual([]);
    expect(verdicts['CLIENT-WEBHOOK-ACK']?.verdict).toBe('followed');
  });
});
