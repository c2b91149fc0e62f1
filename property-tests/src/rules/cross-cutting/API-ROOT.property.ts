/**
 * API-ROOT: GET /api/ answers 200 (valid against the document's schema) to every configured key of the
 * target's environment, and 401 with the error array to missing or wrong credentials.
 */
import fc from 'fast-check';
import { basicHeader, type Credentials } from '../../http/masked-auth.js';
import { expectStatus, expectValid } from '../expect-response.js';
import { defineRule } from '../rule.js';

const ROOT = '/api/';

export const apiRoot = defineRule<Credentials>({
  id: 'API-ROOT',
  area: 'cross-cutting',
  quiet: true,
  operations: ['getApiRoot'],
  runs: 10,
  arbitrary(suite) {
    const valid: Credentials[] = suite.config.keys.second ? ['primary', 'second'] : ['primary'];
    const wrong = fc
      .string({ minLength: 1, maxLength: 10 })
      .filter((secret) => secret !== suite.config.keys.primary.secret)
      .map((secret): Credentials => ({ header: basicHeader({ id: suite.config.keys.primary.id, secret }) }));
    return fc.oneof(fc.constantFrom(...valid), fc.constant<Credentials>('none'), wrong);
  },
  examples: (suite) => (suite.config.keys.second ? ['primary', 'second', 'none'] : ['primary', 'none']),
  async check(credentials, run) {
    const response = await run.http.request({ method: 'GET', url: ROOT, auth: credentials });
    const schema = run.document.operation('getApiRoot')?.responses.get('200')?.schema;
    if (credentials === 'primary' || credentials === 'second') {
      expectStatus(response, [200], `GET ${ROOT} with the ${credentials} key`);
      if (schema !== undefined) expectValid(run.document, response, schema, `GET ${ROOT}`);
      return;
    }
    expectStatus(response, [401], `GET ${ROOT} with ${credentials === 'none' ? 'no' : 'wrong'} credentials`);
  },
});
