/**
 * INVOICE-CANCELLED: an invoice's `status` is the SAT's word, `Cancelado` once cancelled (`Vigente` while
 * in force), as the rule states; the document's invoice record has that member and its list that
 * filter. After a retrieval (generated range and direction), GET `P/?link=&status=<word>` lists exactly
 * the link's invoices whose status is that word, in the list's order, and the detail of one of them (the
 * follow-up read of a cancelled invoice) carries it. The `invoices_cancelled` event is the webhooks
 * area's.
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import { expectStatus } from '../expect-response.js';
import { INVOICE_STATUS } from '../invoice-status.js';
import { defineRule, fail, type SuiteContext, skip, unmet } from '../rule.js';
import type { DataResource } from './data-resources.js';
import { acceptedRange, enumChoice, type Reachable, reachableResources } from './reachable.js';
import { idOf, itemUrl, listByLink } from './records.js';
import { type RangeChoice, retrievalBody, retrieveRecords } from './retrieval.js';

const { member: MEMBER, cancelled: CANCELLED, inForce: IN_FORCE } = INVOICE_STATUS;

interface Input {
  status: string;
  range: RangeChoice;
  enums: Record<string, string>;
  pick: number;
}

interface Fixture {
  entry: Reachable;
  /** Cancelled invoices seen in the link's list (for the report). */
  cancelled: Set<string>;
}

/** Whether the detail's record schema has the `status` member. */
function hasStatus(suite: SuiteContext, resource: DataResource): boolean {
  const schema = suite.document.resolve(resource.detail?.responses.get('200')?.schema);
  return isObject(schema) && isObject(schema.properties) && MEMBER in schema.properties;
}

export const invoiceCancelled = defineRule<Input, Fixture>({
  id: 'INVOICE-CANCELLED',
  area: 'data',
  operations: ['retrieveInvoices', 'listInvoices'],
  runs: 10,
  async prepare(suite, note) {
    const governed = suite.operations.find((op) => {
      const rules = op.raw['x-rules'];
      return op.method === 'GET' && Array.isArray(rules) && rules.includes('INVOICE-CANCELLED');
    });
    if (!governed) return skip('no operation governed by INVOICE-CANCELLED left by the config');
    const collection = governed.path.replace(/\{.*$/, '');
    const [entry] = await reachableResources(suite, note, { keep: (r) => r.path === collection && !!r.list });
    if (!entry) return skip(`the retrieval and list of ${collection} are not reachable`);
    if (!hasStatus(suite, entry.resource))
      fail(`the ${collection} record schema has no \`${MEMBER}\` member`);
    if (!entry.resource.list?.parameters.some((p) => p.in === 'query' && p.name === MEMBER)) {
      return skip(`GET ${collection} has no \`${MEMBER}\` filter`);
    }
    return { entry, cancelled: new Set<string>() };
  },
  arbitrary: (suite, { entry }) =>
    fc.record({
      status: fc.constantFrom(CANCELLED, IN_FORCE),
      range: acceptedRange(suite, entry.resource),
      enums: enumChoice(entry.resource),
      pick: fc.nat(),
    }),
  examples: () =>
    [CANCELLED, IN_FORCE].map((status) => ({ status, range: { back: 0, span: 120 }, enums: {}, pick: 0 })),
  async check({ status, range, enums, pick }, run, fixture) {
    const { entry } = fixture;
    const member = MEMBER;
    const { resource, link, today } = entry;
    await retrieveRecords(run, resource, retrievalBody(resource, link, today, { range, enums }));
    const whole = await listByLink(run.http, resource.path, link);
    for (const record of whole) if (record[member] === CANCELLED) fixture.cancelled.add(idOf(record));
    const wanted = whole.filter((record) => record[member] === status).map(idOf);
    const filtered = await listByLink(run.http, resource.path, link, { [member]: status });
    const got = filtered.map(idOf);
    if (got.join() !== wanted.join()) {
      fail(
        `GET ${resource.path}?link=${link}&${member}=${status} answered [${got.slice(0, 8).join(', ')}] (${got.length}); the link's list holds ${wanted.length} with ${member} ${status}: [${wanted.slice(0, 8).join(', ')}]`,
      );
    }
    // A link without invoices: the filter keeps nothing whatever the server does with it.
    if (whole.length === 0) unmet(`GET ${resource.path}?link=${link} holds no invoice to filter`);
    const chosen = filtered[pick % Math.max(filtered.length, 1)];
    if (!chosen || !resource.detail) return;
    const url = itemUrl(resource.path, idOf(chosen));
    const detail = await run.http.request({ method: 'GET', url });
    expectStatus(detail, [200], `GET ${url}`);
    const shown = isObject(detail.json) ? detail.json[member] : undefined;
    if (shown !== status)
      fail(`GET ${url} has ${member} ${JSON.stringify(shown)}; the list filtered by ${status} held it`);
  },
  summarize: ({ cancelled }) => [
    `${cancelled.size} invoices with ${MEMBER} ${CANCELLED} seen in the link's list`,
  ],
});
