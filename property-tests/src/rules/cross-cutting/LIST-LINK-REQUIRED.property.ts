/**
 * LIST-LINK-REQUIRED: the document requires `link` on exactly the seven lists the rule names, and the
 * target answers those lists without `link` (any other valid query) with 400, `code: required`,
 * `field: link`.
 */
import fc from 'fast-check';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { requestArbitrary } from '../../arbitraries/request-arbitrary.js';
import { expectFieldError, expectStatus } from '../expect-response.js';
import { defineRule, fail, type SuiteContext, skip } from '../rule.js';

/** The lists of balances, exchanges, transactions, bills, investments, investment transactions and BR employments. */
export const LINK_REQUIRED_LISTS = [
  '/api/br/balances/',
  '/api/br/exchanges/',
  '/api/transactions/',
  '/api/bills/',
  '/api/br/investments/',
  '/api/br/investment-transactions/',
  '/api/br/employments/',
];

interface Input {
  operationId: string;
  query: Record<string, string>;
}

const requiresLink = (operation: ApiOperation) =>
  operation.method === 'GET' &&
  operation.parameters.some((p) => p.name === 'link' && p.in === 'query' && p.required);

function checkDocument(suite: SuiteContext): void {
  const marked = suite.document.operations.filter(requiresLink).map((operation) => operation.path);
  const missing = LINK_REQUIRED_LISTS.filter((path) => !marked.includes(path));
  const extra = marked.filter((path) => !LINK_REQUIRED_LISTS.includes(path));
  if (missing.length > 0 || extra.length > 0) {
    fail(
      `the document's required \`link\` lists differ from the rule's: missing ${missing.join(', ') || '-'}; extra ${extra.join(', ') || '-'}`,
    );
  }
}

export const listLinkRequired = defineRule<Input, ApiOperation[]>({
  id: 'LIST-LINK-REQUIRED',
  area: 'cross-cutting',
  quiet: true,
  over: (operation) => operation.parameters.some((p) => p.in === 'query' && p.name === 'link' && p.required),
  runs: 14,
  async prepare(suite) {
    const lists = suite.operations.filter(requiresLink);
    return lists.length === 0 ? skip('none of the seven lists is left by the config') : lists;
  },
  arbitrary: (suite, lists) =>
    fc.constantFrom(...lists).chain((operation) =>
      requestArbitrary(suite.schemas, operation).map(({ query }) => {
        const { link: _dropped, ...rest } = query;
        return { operationId: operation.operationId, query: rest };
      }),
    ),
  async check({ operationId, query }, run) {
    checkDocument(run);
    const operation = run.document.operation(operationId)!;
    const response = await run.http.request({ method: 'GET', url: operation.path, query });
    const what = `GET ${operation.path} without link`;
    expectStatus(response, [400], what);
    expectFieldError(response, ['link'], 'required', what);
  },
});
