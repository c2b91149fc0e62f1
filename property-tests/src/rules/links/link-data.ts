/**
 * A link's data, as the deletion rules see it (LINK-DELETE-SYNC, LINK-DELETE-ASYNC): the retrievals that
 * serve a kind of link (`x-applies-to`), records fetched through them, and every list the document
 * filters by `link`, which must be empty once the link is gone.
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import type { FixtureKind } from '../../target/target-config.js';
import { describeAnswer } from '../expect-response.js';
import { fixtureKindFor } from '../known-values.js';
import { fail, type RunContext, type SuiteContext } from '../rule.js';
import { requiredHeaders, seedCollection } from '../seed-collection.js';
import { LINKS, registerLink } from './link-requests.js';

/** A list filtered by `link`: its path and the headers it needs. */
export interface LinkedList {
  path: string;
  headers: Record<string, string>;
}

const takesLink = (operation: ApiOperation) =>
  operation.parameters.some((parameter) => parameter.in === 'query' && parameter.name === 'link');

/** Every collection list (GET, no path parameter) the document filters by `link`. */
export function linkedLists(suite: SuiteContext): LinkedList[] {
  return suite.operations
    .filter((op) => op.method === 'GET' && !op.path.includes('{') && op.path !== LINKS && takesLink(op))
    .map((op) => ({ path: op.path, headers: requiredHeaders(suite, op) }));
}

/** Collection paths whose POST retrieves data for a link of `kind` (`link` a required body member). */
export function retrievalsFor(suite: SuiteContext, kind: FixtureKind): string[] {
  return suite.operations
    .filter((op) => op.method === 'POST' && !op.path.includes('{') && op.path !== LINKS && op.body)
    .filter((op) => {
      const schema = suite.document.resolve(op.body?.schema);
      return isObject(schema) && Array.isArray(schema.required) && schema.required.includes('link');
    })
    .map((op) => op.path)
    .filter((path) => fixtureKindFor(suite, path) === kind);
}

/** The retrievals of every kind, for the deletion rules' arbitraries. */
export function retrievalsByKind(
  suite: SuiteContext,
  kinds: readonly FixtureKind[],
): Map<FixtureKind, string[]> {
  return new Map(kinds.map((kind) => [kind, retrievalsFor(suite, kind)]));
}

/** A link to delete: a kind of institution the target registers, and the retrievals it gets data from. */
export interface LinkWithData {
  kind: FixtureKind;
  retrievals: string[];
}

/** Any kind the fixture knows, with any of the retrievals that serve it. */
export const linkWithDataArbitrary = (retrievals: Map<FixtureKind, string[]>): fc.Arbitrary<LinkWithData> =>
  fc
    .constantFrom(...retrievals.keys())
    .chain((kind) =>
      fc.record({ kind: fc.constant(kind), retrievals: fc.subarray(retrievals.get(kind) ?? []) }),
    );

/** A bank link with every retrieval that serves it: the most data to take along. */
export const richestLink = (retrievals: Map<FixtureKind, string[]>): LinkWithData[] => [
  { kind: 'link', retrievals: retrievals.get('link') ?? [] },
];

/** Registers the link of `input` and retrieves its data; the registered link. */
export async function registerWithData(run: RunContext, input: LinkWithData) {
  const link = await registerLink(run, run.config.fixtures[input.kind]);
  await retrieveData(run, input.retrievals, link.id);
  return link;
}

/** Retrieves data of `collections` for the link (recorded; a retrieval the target refuses is left out). */
export async function retrieveData(run: RunContext, collections: readonly string[], link: string) {
  for (const collection of collections) await seedCollection(run, collection, collection, link);
}

/** How many records of the link a list holds (one page of 1000), or a Violation when it is not a page. */
export async function linkedCount(run: RunContext, list: LinkedList, link: string): Promise<number> {
  const query = { link, page_size: '1000' };
  const answer = await run.http.request({ method: 'GET', url: list.path, query, headers: list.headers });
  const body = answer.json;
  if (answer.status !== 200 || !isObject(body) || !Array.isArray(body.results)) {
    fail(`GET ${list.path}?link=${link}: wanted 200 with a page of results, got ${describeAnswer(answer)}`);
  }
  return Math.max(typeof body.count === 'number' ? body.count : 0, body.results.length);
}

/** How many records of the link the lists hold (to say whether a deletion had data to take along). */
export async function countLinkedRecords(
  run: RunContext,
  lists: readonly LinkedList[],
  link: string,
): Promise<number> {
  let total = 0;
  for (const list of lists) total += await linkedCount(run, list, link);
  return total;
}

/** LINK-DELETE-SYNC / LINK-DELETE-ASYNC: every list filtered by the gone link is empty. */
export async function expectNoLinkedData(
  run: RunContext,
  lists: readonly LinkedList[],
  link: string,
  what: string,
): Promise<void> {
  for (const list of lists) {
    const count = await linkedCount(run, list, link);
    if (count > 0) {
      fail(`${what}: GET ${list.path}?link=${link} still lists ${count} record(s) of the deleted link`);
    }
  }
}
