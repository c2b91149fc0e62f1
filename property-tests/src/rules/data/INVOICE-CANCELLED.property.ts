/**
 * INVOICE-CANCELLED: the invoice record's status member allows `CANCELLED` in the document; after a
 * retrieval (generated range and direction), GET `P/?link=&status=<s>` lists exactly the link's invoices
 * whose status is `s`, in the list's order, and the detail of one of them (the follow-up read of a
 * cancelled invoice) carries that status. The `invoices_cancelled` event is the webhooks area's.
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import { expectStatus } from '../expect-response.js';
import { defineRule, fail, type SuiteContext, skip } from '../rule.js';
import type { DataResource } from './data-resources.js';
import { acceptedRange, enumChoice, type Reachable, reachableResources } from './reachable.js';
import { idOf, itemUrl, listByLink } from './records.js';
import { type RangeChoice, retrievalBody, retrieveRecords } from './retrieval.js';

const CANCELLED = 'CANCELLED';

interface Input {
  status: string;
  range: RangeChoice;
  enums: Record<string, string>;
  pick: number;
}

interface Fixture {
  entry: Reachable;
  member: string;
  statuses: string[];
  /** Cancelled invoices seen in the link's list (for the report). */
  cancelled: Set<string>;
}

/** The record member whose enum holds CANCELLED, and its values, from the detail's schema. */
function statusMember(suite: SuiteContext, resource: DataResource): [string, string[]] | undefined {
  const schema = suite.document.resolve(resource.detail?.responses.get('200')?.schema);
  const properties = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
  for (const [name, member] of Object.entries(properties)) {
    const resolved = suite.document.resolve(member);
    // A nullable member's enum holds null too: only the string values can be asked for in a filter.
    const values =
      isObject(resolved) && Array.isArray(resolved.enum)
        ? resolved.enum.filter((value): value is string => typeof value === 'string')
        : [];
    if (values.includes(CANCELLED)) return [name, values];
  }
  return undefined;
}

export const invoiceCancelled = defineRule<Input, Fixture>({
  id: 'INVOICE-CANCELLED',
  area: 'data',
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
    const found = statusMember(suite, entry.resource);
    if (!found) fail(`no member of the ${collection} record schema allows ${CANCELLED}`);
    if (!entry.resource.list?.parameters.some((p) => p.in === 'query' && p.name === found[0])) {
      return skip(`GET ${collection} has no \`${found[0]}\` filter`);
    }
    return { entry, member: found[0], statuses: found[1], cancelled: new Set<string>() };
  },
  arbitrary: (suite, { entry, statuses }) =>
    fc.record({
      status: fc.constantFrom(...statuses),
      range: acceptedRange(suite, entry.resource),
      enums: enumChoice(entry.resource),
      pick: fc.nat(),
    }),
  examples: (_, { statuses }) =>
    statuses.map((status) => ({ status, range: { back: 0, span: 120 }, enums: {}, pick: 0 })),
  async check({ status, range, enums, pick }, run, fixture) {
    const { entry, member } = fixture;
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
    const chosen = filtered[pick % Math.max(filtered.length, 1)];
    if (!chosen || !resource.detail) return;
    const url = itemUrl(resource.path, idOf(chosen));
    const detail = await run.http.request({ method: 'GET', url });
    expectStatus(detail, [200], `GET ${url}`);
    const shown = isObject(detail.json) ? detail.json[member] : undefined;
    if (shown !== status)
      fail(`GET ${url} has ${member} ${JSON.stringify(shown)}; the list filtered by ${status} held it`);
  },
  summarize: ({ cancelled, member }) => [
    `${cancelled.size} invoices with ${member} ${CANCELLED} seen in the link's list`,
  ],
});
