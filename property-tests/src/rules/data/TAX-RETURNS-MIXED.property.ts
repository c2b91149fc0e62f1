/**
 * TAX-RETURNS-MIXED: tax-return retrievals over generated years, one of each `type` (yearly and monthly;
 * the first one generated, possibly without `type`), answer lists valid against the document whose items
 * are a `oneOf` (yearly or monthly): each record matches exactly one branch, and only the asked `type`
 * when one is asked (the document's choice). The list GET `P/?link=` validates against its page schema
 * and mixes the kinds: after both retrievals it holds records of every kind they returned, side by side.
 * Which kinds the target returned is reported.
 */
import fc from 'fast-check';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import { expectUsable } from '../expect-response.js';
import { defineRule, fail, type RunContext, type SuiteContext, skip, unmet } from '../rule.js';
import type { DataResource } from './data-resources.js';
import { byPath, type Reachable, reachableResources } from './reachable.js';
import { dayText, expectRetrieved, postRetrieval, yearOfDay } from './retrieval.js';

interface Input {
  path: string;
  back: number;
  span: number;
  /** A value of the body's optional `type`, or null for both kinds. */
  type: string | null;
}

interface Mixed extends Reachable {
  /** The item schema's `oneOf` branches. */
  branches: JsonValue[];
  types: string[];
  /** Branches seen in one retrieval answer, per run (for the report). */
  seen: Set<string>;
}

function branchesOf(suite: SuiteContext, resource: DataResource): JsonValue[] {
  const list = suite.document.resolve(resource.retrieve.responses.get('201')?.schema);
  const items = suite.document.resolve(isObject(list) ? list.items : undefined);
  return isObject(items) && Array.isArray(items.oneOf) ? items.oneOf : [];
}

/** The kinds a retrieval may ask for: the body's `type` enum, else (a free string, as the provider's) its examples. */
function typesOf(suite: SuiteContext, resource: DataResource): string[] {
  const body = suite.document.resolve(resource.retrieve.body?.schema);
  const type =
    isObject(body) && isObject(body.properties) ? suite.document.resolve(body.properties.type) : undefined;
  if (!isObject(type)) return [];
  const values = Array.isArray(type.enum) ? type.enum : Array.isArray(type.examples) ? type.examples : [];
  return values.filter((value): value is string => typeof value === 'string');
}

/** The index of the one branch each record matches; a Violation when it matches none or several. */
function kindsOf(suite: SuiteContext, entry: Mixed, records: JsonObject[], what: string): number[] {
  const validators = entry.branches.map((branch) => suite.document.ajv.compile(branch));
  // Undocumented members are the schema rows' to report: the branch is told by the documented ones.
  const documented = new Set(
    entry.branches.flatMap((branch) => {
      const resolved = suite.document.resolve(branch);
      return isObject(resolved) && isObject(resolved.properties) ? Object.keys(resolved.properties) : [];
    }),
  );
  return records.map((whole) => {
    const record = Object.fromEntries(Object.entries(whole).filter(([name]) => documented.has(name)));
    const matching = validators.flatMap((validate, index) => (validate(record) ? [index] : []));
    if (matching.length !== 1)
      fail(`${what}: record ${String(whole.id)} matches ${matching.length} branches of the oneOf`);
    return matching[0]!;
  });
}

/**
 * A retrieval body over the years `back` and `span` choose, in the members of its kind (the document's):
 * `year_from`/`year_to` for yearly returns (and without `type`), `date_from`/`date_to` for monthly ones.
 */
function mixedBody(entry: Mixed, range: { back: number; span: number }, type: string | null): JsonObject {
  const last = yearOfDay(entry.today) - range.back;
  const first = last - range.span;
  const years: JsonObject =
    type === 'monthly'
      ? { date_from: `${first}-01-01`, date_to: range.back === 0 ? dayText(entry.today) : `${last}-12-31` }
      : { year_from: String(first), year_to: String(last) };
  return { ...entry.resource.fixed, link: entry.link, ...years, ...(type ? { type } : {}) };
}

/** One retrieval (only `type`'s records when one is asked): the oneOf branch of each record returned. */
async function retrieveKinds(
  run: RunContext,
  entry: Mixed,
  range: { back: number; span: number },
  type: string | null,
): Promise<number[]> {
  const { resource } = entry;
  const body = mixedBody(entry, range, type);
  const what = `POST ${resource.path} ${JSON.stringify(body)}`;
  const records = expectRetrieved(run, resource, await postRetrieval(run.http, resource, body), body);
  const kinds = kindsOf(run, entry, records, what);
  // The request and the record name the kind as the provider does (`yearly`); a record spelling it in
  // capitals (`YEARLY`, as this document's records did before) names the same kind.
  const asked = type?.toUpperCase();
  const other =
    asked === undefined ? [] : records.filter((record) => String(record.type).toUpperCase() !== asked);
  if (other.length > 0) fail(`${what}: asked for type ${type}, got ${other.length} records of another type`);
  return kinds;
}

export const taxReturnsMixed = defineRule<Input, Mixed[]>({
  id: 'TAX-RETURNS-MIXED',
  area: 'data',
  operations: ['retrieveTaxReturns', 'listTaxReturns'],
  runs: 10,
  async prepare(suite, note) {
    const keep = (resource: DataResource) => {
      const rules = resource.retrieve.raw['x-rules'];
      return (
        Array.isArray(rules) && rules.includes('TAX-RETURNS-MIXED') && branchesOf(suite, resource).length > 1
      );
    };
    const mixed = (await reachableResources(suite, note, { keep })).map((entry) => ({
      ...entry,
      branches: branchesOf(suite, entry.resource),
      types: typesOf(suite, entry.resource),
      seen: new Set<string>(),
    }));
    return mixed.length === 0
      ? skip('no reachable retrieval answers a oneOf list (TAX-RETURNS-MIXED)')
      : mixed;
  },
  arbitrary: (_, mixed) =>
    fc.constantFrom(...mixed).chain(({ resource, types }) =>
      fc.record({
        path: fc.constant(resource.path),
        back: fc.integer({ min: 0, max: 1 }),
        span: fc.integer({ min: 0, max: 2 }),
        type: types.length > 0 ? fc.option(fc.constantFrom(...types), { freq: 2 }) : fc.constant(null),
      }),
    ),
  examples: (_, mixed) =>
    mixed.map(({ resource }) => ({ path: resource.path, back: 0, span: 1, type: null })),
  async check({ path, back, span, type }, run, mixed) {
    const entry = byPath(mixed, path);
    // The generated first retrieval, then one of each other type: both kinds are asked for.
    const types = [type, ...entry.types.filter((other) => other !== type)];
    const kinds = new Set<number>();
    for (const asked of types) {
      for (const kind of await retrieveKinds(run, entry, { back, span }, asked)) kinds.add(kind);
    }
    if (kinds.size > 0) entry.seen.add([...kinds].sort().join('+'));
    if (entry.types.length > 1 && kinds.size < 2)
      unmet(
        `retrievals of ${types.join(', ')} returned records of ${kinds.size} kind(s) only: no mix to list`,
      );
    const { link } = entry;
    const answer = await run.http.request({ method: 'GET', url: path, query: { link, page_size: '1000' } });
    const schema = entry.resource.list?.responses.get('200')?.schema;
    if (schema !== undefined) expectUsable(run.document, answer, schema, `GET ${path}?link=${link}`);
    const listed =
      isObject(answer.json) && Array.isArray(answer.json.results) ? answer.json.results.filter(isObject) : [];
    const listedKinds = new Set(kindsOf(run, entry, listed, `GET ${path}?link=${link}`));
    const missing = [...kinds].filter((kind) => !listedKinds.has(kind));
    if (listed.length < 1000 && missing.length > 0)
      fail(
        `GET ${path}?link=${link} lists no record of oneOf branch ${missing.join(', ')}, which the retrievals of ${types.map((t) => t ?? 'no type').join(' and ')} returned`,
      );
  },
  summarize: (mixed) =>
    mixed.map(
      ({ resource, seen }) =>
        `${resource.path}: oneOf branches per answer: ${[...seen].join(', ') || 'none'}`,
    ),
});
