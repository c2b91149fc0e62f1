/**
 * Run by webhook-tls.test.ts in a process of its own, which trusts the test's certificate through
 * NODE_EXTRA_CA_CERTS (a process reads it at start): a simulator restricted as one listening beyond
 * loopback, allowed `argv[3]`, delivers a recurrent link's events to `argv[2]` and prints each
 * attempt, and any answer that broke the document, as one line of JSON.
 */
import { createSimulator } from '../../simulator/src/simulator.js';
import {
  contractCheckedExchange,
  FIXED_NOW,
  TEST_KEYS,
} from '../../simulator/test-support/contract-checked-simulator.js';

const [url, allow] = process.argv.slice(2) as [string, string];
const KEY = TEST_KEYS[0]!;
const violations: string[] = [];
const simulator = await createSimulator({
  seed: 'tls-delivery',
  environment: 'production',
  keys: TEST_KEYS,
  realTime: () => FIXED_NOW,
  webhookDestinations: { restricted: true, allow: [allow] },
  webhook: { url, bearer_token: null },
  onExchange: contractCheckedExchange(violations),
});

const call = (method: string, path: string, body?: unknown) =>
  simulator.handle({
    method,
    path,
    query: new URLSearchParams(),
    headers: {
      authorization: `Basic ${Buffer.from(`${KEY.secretId}:${KEY.secretPassword}`).toString('base64')}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? '' : JSON.stringify(body),
    origin: 'http://127.0.0.1:4010',
  });

const link = {
  institution: 'ofbank_br_retail',
  username: '76109277673',
  password: 'p',
  access_mode: 'recurrent',
};
await call('POST', '/api/links/', link);
await simulator.webhooks.idle();
const events = (await call('GET', '/_ofkit/events/')) as { body: { attempts: unknown[] }[] };
const attempts = events.body.flatMap((event) => event.attempts);
process.stdout.write(`${JSON.stringify({ attempts, violations })}\n`);
await simulator.webhooks.close();
