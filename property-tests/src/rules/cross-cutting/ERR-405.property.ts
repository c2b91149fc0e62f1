/**
 * ERR-405: every method a path does not declare gets 405 with the error array. Every (path, method)
 * pair is tried (examples), with unknown ids in the path. HEAD and OPTIONS are left out: a HEAD answer
 * has no body to carry the error array, and OPTIONS is the CORS preflight of proxies and gateways.
 */
import fc from 'fast-check';
import { expectStatus } from '../expect-response.js';
import { defineRule, type SuiteContext, skip } from '../rule.js';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

interface Input {
  path: string;
  method: string;
  id: string;
}

/** Paths with at least one operation the target implements, and the methods they refuse. */
function refusals(suite: SuiteContext): { path: string; method: string }[] {
  const paths = [...new Set(suite.operations.map((operation) => operation.path))];
  return paths.flatMap((path) => {
    const declared = suite.document.methodsOf(path);
    return METHODS.filter((method) => !declared.includes(method)).map((method) => ({ path, method }));
  });
}

export const err405 = defineRule<Input, { path: string; method: string }[]>({
  id: 'ERR-405',
  area: 'cross-cutting',
  quiet: true,
  runs: 10,
  async prepare(suite) {
    const pairs = refusals(suite);
    return pairs.length === 0 ? skip('every path accepts every method') : pairs;
  },
  arbitrary: (_, pairs) =>
    fc
      .record({ pair: fc.constantFrom(...pairs), id: fc.uuid({ version: 4 }) })
      .map(({ pair, id }) => ({ ...pair, id })),
  examples: (_, pairs) => pairs.map((pair) => ({ ...pair, id: '00000000-0000-4000-8000-000000000405' })),
  async check({ path, method, id }, run) {
    const url = path.replace(/\{[^}]+\}/g, id);
    const response = await run.http.request({ method, url });
    const what = `${method} ${path}, which the document does not declare`;
    expectStatus(response, [405], what);
  },
});
