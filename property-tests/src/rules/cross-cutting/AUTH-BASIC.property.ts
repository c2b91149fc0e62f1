/**
 * AUTH-BASIC: any operation, with no credentials, a malformed Authorization header, an unknown key or
 * the right key id with a wrong secret, gets 401 with the error array; the right key is let in. Every
 * operation is tried once without credentials (examples), so each shows its documented 401.
 */
import fc from 'fast-check';
import { basicHeader, type Credentials } from '../../http/masked-auth.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import {
  type OperationRequest,
  operationOf,
  operationRequests,
  requestPerOperation,
} from '../operation-requests.js';
import { defineRule, fail, skip } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';

interface Input {
  credentials: Credentials;
  call: OperationRequest;
}

const MALFORMED = [
  'Basic',
  'Basic !!!',
  'Bearer 0123456789abcdef',
  'Basic Og==',
  'basic',
  'Digest username="x"',
];

export const authBasic = defineRule<Input>({
  id: 'AUTH-BASIC',
  area: 'cross-cutting',
  prepare: async (suite) =>
    suite.operations.length === 0 ? skip('no operation left by the config') : undefined,
  arbitrary(suite) {
    const { primary } = suite.config.keys;
    const text = fc.string({ minLength: 1, maxLength: 12 }).filter((value) => !value.includes(':'));
    const credentials: fc.Arbitrary<Credentials> = fc.oneof(
      fc.constant<Credentials>('none'),
      fc.constantFrom(...MALFORMED).map((header): Credentials => ({ header })),
      fc
        .tuple(text, text)
        .filter(([id]) => id !== primary.id)
        .map(([id, secret]): Credentials => ({ header: basicHeader({ id, secret }) })),
      text
        .filter((secret) => secret !== primary.secret)
        .map((secret): Credentials => ({ header: basicHeader({ id: primary.id, secret }) })),
    );
    return fc.record({ credentials, call: operationRequests(suite, suite.operations) });
  },
  // Each kind of wrong credentials once (none, malformed, an unknown key, the right key id with a wrong
  // secret), then every operation without credentials.
  examples(suite) {
    const { primary } = suite.config.keys;
    const [call] = fc.sample(operationRequests(suite, suite.operations), { numRuns: 1, seed: 0 });
    const wrong: Credentials[] = [
      'none',
      { header: MALFORMED[0]! },
      { header: basicHeader({ id: `${primary.id}-unknown`, secret: primary.secret }) },
      { header: basicHeader({ id: primary.id, secret: `${primary.secret}-wrong` }) },
    ];
    const everyOperation = requestPerOperation(suite, suite.operations).map(
      (each): Input => ({ credentials: 'none', call: each }),
    );
    return [...wrong.map((credentials) => ({ credentials, call: call! })), ...everyOperation];
  },
  async check({ credentials, call }, run) {
    const operation = operationOf(run, call);
    const response = await sendRequest(run.http, operation, call.request, { auth: credentials });
    const what = `${describeOperation(operation)} with ${typeof credentials === 'string' ? 'no credentials' : 'wrong credentials'}`;
    expectStatus(response, [401], what);
    const root = await run.http.request({ method: 'GET', url: '/api/' });
    if (root.status === 401) fail(`GET /api/ with the configured key got 401: ${describeAnswer(root)}`);
  },
});
