/**
 * Values the suite can know better than the schemas: ids of records that exist (listed from the
 * collection, created through its POST when it is empty), a live link of an institution that serves the
 * operation (`x-applies-to`), and link registrations that work. Unknown ids are mixed in, so both the
 * found and the not-found answers are exercised. What cannot be set up becomes a note.
 */
import fc from 'fast-check';
import { isObject, type JsonValue } from '../../../openapi/document/json.js';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import {
  fillPath,
  type RequestInput,
  type RequestOverrides,
  requestArbitrary,
} from '../arbitraries/request-arbitrary.js';
import type { FixtureKind } from '../target/target-config.js';
import { isSkip, type SuiteContext } from './rule.js';
import { requiredHeaders, seedCollection } from './seed-collection.js';

const KINDS: { kind: FixtureKind; type: string; country: string }[] = [
  { kind: 'link', type: 'bank', country: 'BR' },
  { kind: 'fiscalMx', type: 'fiscal', country: 'MX' },
  { kind: 'fiscalCl', type: 'fiscal', country: 'CL' },
  { kind: 'employmentBr', type: 'employment', country: 'BR' },
  { kind: 'employmentMx', type: 'employment', country: 'MX' },
];
const MAX_IDS = 20;
/** Parents tried for one with children (a nested collection's row, coverage). */
const MAX_PARENTS = 100;

/** The collection a path belongs to: everything before its first parameter. */
export const collectionOf = (path: string) => path.replace(/\{.*$/, '');

/** The fixture institution that serves a path's resource (the retrieval's `x-applies-to`; default a bank). */
export function fixtureKindFor(suite: SuiteContext, path: string): FixtureKind {
  const collection = collectionOf(path);
  if (collection.includes('/employment-metrics/')) return 'employmentMetrics';
  const retrieve = suite.document.operations.find((op) => op.method === 'POST' && op.path === collection);
  const applies = retrieve?.raw['x-applies-to'];
  if (!isObject(applies)) return 'link';
  const types = Array.isArray(applies.institution_types) ? applies.institution_types : [];
  const countries = Array.isArray(applies.countries) ? applies.countries : [];
  return KINDS.find((k) => types.includes(k.type) && countries.includes(k.country))?.kind ?? 'link';
}

/** Mostly the known values, sometimes an unknown uuid. */
function mostly(values: string[]): fc.Arbitrary<string> {
  const known = fc.constantFrom(...values);
  const arbitrary = fc.oneof(
    { weight: 3, arbitrary: known },
    { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
  );
  firstKnown.set(arbitrary, values[0]!);
  return arbitrary;
}

/** The first known value behind each `mostly` arbitrary: a request sure to name existing records. */
const firstKnown = new WeakMap<fc.Arbitrary<string>, string>();

/**
 * A request of `operation` with every overridden value at a known one (ids of existing records, the
 * live link) and the known-good body: the schema rows send it first, so that each operation shows
 * its success status whenever the state exists.
 */
export function knownRequest(
  suite: SuiteContext,
  operation: ApiOperation,
  overrides: RequestOverrides,
  body?: JsonValue,
): RequestInput | undefined {
  const [sample] = fc.sample(requestArbitrary(suite.schemas, operation, overrides), { numRuns: 1, seed: 0 });
  if (!sample) return undefined;
  const pick = (values: Record<string, fc.Arbitrary<unknown>> | undefined, into: Record<string, string>) => {
    for (const [name, arbitrary] of Object.entries(values ?? {})) {
      const known = firstKnown.get(arbitrary as fc.Arbitrary<string>);
      if (known !== undefined) into[name] = known;
    }
  };
  const pathParams = { ...sample.pathParams };
  pick(overrides.path, pathParams);
  const query = { ...sample.query };
  pick(overrides.query, query);
  const [known] = overrides.bodies ? fc.sample(overrides.bodies, { numRuns: 1, seed: 0 }) : [];
  let chosen = body ?? known ?? sample.body;
  if (body === undefined && isObject(chosen)) {
    // The example's own reference ids (`account`) name records of another account: known ones instead.
    const members: Record<string, string> = {};
    pick(overrides.body, members);
    const object = chosen;
    const replaced = Object.entries(members).filter(([name]) => name in object);
    chosen = { ...object, ...Object.fromEntries(replaced) };
  }
  return { ...sample, pathParams, query, ...(chosen === undefined ? {} : { body: chosen }) };
}

function usesLink(suite: SuiteContext, operation: ApiOperation): boolean {
  const body = operation.body ? suite.document.resolve(operation.body.schema) : undefined;
  const inBody = isObject(body) && isObject(body.properties) && 'link' in body.properties;
  return inBody || operation.parameters.some((p) => p.name === 'link' && p.in === 'query');
}

/** Ids of existing records of a (possibly nested) collection, seeding it once when it is empty. */
async function existingIds(
  suite: SuiteContext,
  collection: { template: string; url: string },
  param: string,
  link: string | undefined,
  limit = MAX_IDS,
): Promise<string[]> {
  const list = suite.document.operations.find((op) => op.method === 'GET' && op.path === collection.template);
  if (!list) return [];
  // Records of the fixture link where the list filters by link: a reference must belong to that link
  // ("Link X has no account Y" otherwise).
  const byLink = list.parameters.some((p) => p.name === 'link' && p.in === 'query');
  const query: Record<string, string> = byLink && link ? { link } : {};
  const read = async () => {
    const records = await suite.fixtures.listAll(collection.url, query, requiredHeaders(suite, list));
    if (isSkip(records)) return [];
    const ids = records.map((record) => record[param] ?? record.id);
    // An id is a string, or an integer (an institution's, as the provider's), written in the path.
    const written = ids.flatMap((id) =>
      typeof id === 'string' ? [id] : Number.isInteger(id) ? [String(id)] : [],
    );
    return written.slice(0, limit);
  };
  const ids = await read();
  if (ids.length > 0) return ids;
  await seedCollection(suite, collection.template, collection.url, link);
  return read();
}

async function pathOverrides(
  suite: SuiteContext,
  operation: ApiOperation,
  link: string | undefined,
  note: (text: string) => void,
): Promise<Record<string, fc.Arbitrary<string>>> {
  const overrides: Record<string, fc.Arbitrary<string>> = {};
  const chosen: Record<string, string> = {};
  const found: Record<string, { template: string; url: string }> = {};
  let parent: string | undefined;
  for (const match of operation.path.matchAll(/\{([^}]+)\}/g)) {
    const param = match[1]!;
    const template = operation.path.slice(0, match.index);
    let ids = await existingIds(suite, { template, url: fillPath(template, chosen) }, param, link);
    // A nested collection (an intent's charges): the first parent may have none; another may (coverage).
    const parents =
      parent && ids.length === 0 ? await existingIds(suite, found[parent]!, parent, link, MAX_PARENTS) : [];
    for (const other of parents.slice(1)) {
      const url = fillPath(template, { ...chosen, [parent!]: other });
      ids = await existingIds(suite, { template, url }, param, link);
      if (ids.length === 0) continue;
      chosen[parent!] = other;
      overrides[parent!] = mostly([other]);
      break;
    }
    found[param] = { template, url: fillPath(template, chosen) };
    parent = param;
    if (ids.length === 0) {
      note(`no ${param} found at ${template} (the suite cannot create one there): unknown ids only`);
      overrides[param] = fc.uuid({ version: 4 });
      chosen[param] = '00000000-0000-4000-8000-000000000000';
    } else {
      overrides[param] = mostly(ids);
      chosen[param] = ids[0]!;
    }
  }
  return overrides;
}

/** `account` -> `/api/accounts/`, `employment_record` -> `/api/employment-records/`: the list a reference names. */
function referencedList(
  suite: SuiteContext,
  operation: ApiOperation,
  member: string,
): ApiOperation | undefined {
  const segment = `/${member.replaceAll('_', '-')}s/`;
  const lists = suite.document.operations.filter(
    (op) => op.method === 'GET' && !op.path.includes('{') && op.path.endsWith(segment),
  );
  const area = operation.path.split('/')[1];
  return lists.find((op) => op.path.split('/')[1] === area) ?? lists[0];
}

/** Members and query parameters that hold the uuid of another record, pointed at existing ones. */
async function referenceOverrides(
  suite: SuiteContext,
  operation: ApiOperation,
  link: string | undefined,
): Promise<Record<string, fc.Arbitrary<string>>> {
  const body = operation.body ? suite.document.resolve(operation.body.schema) : undefined;
  const members = isObject(body) && isObject(body.properties) ? Object.entries(body.properties) : [];
  const params = operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema] as const);
  const overrides: Record<string, fc.Arbitrary<string>> = {};
  for (const [name, schema] of [...members, ...params]) {
    const resolved = suite.document.resolve(schema);
    if (name === 'link' || name === 'id' || !isObject(resolved) || resolved.format !== 'uuid') continue;
    const list = referencedList(suite, operation, name);
    if (!list) continue;
    const ids = await existingIds(suite, { template: list.path, url: list.path }, 'id', link);
    if (ids.length > 0) overrides[name] = mostly(ids);
  }
  return overrides;
}

/** Overrides for the requests of `operation`, and notes on what could not be set up. */
export async function knownValues(
  suite: SuiteContext,
  operation: ApiOperation,
  note: (text: string) => void,
): Promise<RequestOverrides> {
  const kind = fixtureKindFor(suite, operation.path);
  let link: string | undefined;
  if (usesLink(suite, operation) || operation.path.includes('{')) {
    const found = await suite.fixtures.link(kind);
    if (isSkip(found)) note(`no ${kind} link (${found.skip}): unknown link ids only`);
    else link = found;
  }
  const references = await referenceOverrides(suite, operation, link);
  const linked: Record<string, fc.Arbitrary<string>> = link && usesLink(suite, operation)
    ? { link: mostly([link]) }
    : {};
  const overrides: RequestOverrides = {
    path: await pathOverrides(suite, operation, link, note),
    query: { ...references, ...linked },
    body: { ...references, ...linked } as Record<string, fc.Arbitrary<JsonValue>>,
  };
  if (operation.operationId === 'registerLink') {
    const { mfa, ...kinds } = suite.config.fixtures;
    overrides.bodies = fc.constantFrom(...Object.values(kinds), mfa.registration) as fc.Arbitrary<JsonValue>;
  } else if (operation.body?.example !== undefined) {
    // The document's example is a body that makes sense (valid ids aside): mixed in, it reaches the 2xx.
    const example = operation.body.example;
    overrides.bodies = (
      link && isObject(example) && 'link' in example
        ? fc.constant({ ...example, link })
        : fc.constant(example)
    ) as fc.Arbitrary<JsonValue>;
  }
  return overrides;
}
