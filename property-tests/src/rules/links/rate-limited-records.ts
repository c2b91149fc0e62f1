/**
 * DELETE-RATE-LIMIT's targets: the DELETE operations the document rate-limits (`x-rate-limit`) that the
 * target offers, and records to delete in them, made through the API inside a run (new links, or data
 * retrieved for new links of the kind that serves the collection), so that a failure's curl
 * reproduction makes its own records.
 */
import { isObject } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { fillPath } from '../../arbitraries/request-arbitrary.js';
import type { FixtureKind } from '../../target/target-config.js';
import { collectionOf, fixtureKindFor } from '../known-values.js';
import { fail, isSkip, type RunContext, type SuiteContext } from '../rule.js';
import { requiredHeaders, seedCollection } from '../seed-collection.js';
import { LINKS, registerLink } from './link-requests.js';

/** A rate-limited deletion: its operation, its collection, and the kind of link whose data it holds. */
export interface DeletionTarget {
  operationId: string;
  collection: string;
  /** null for the links themselves. */
  kind: FixtureKind | null;
}

/** Links registered (or retrievals tried) per record wanted, at most. */
const MAX_SOURCES = 8;

/** The DELETE url of one record. */
export function deleteUrl(suite: SuiteContext, target: DeletionTarget, id: string): string {
  const operation = suite.document.operation(target.operationId)!;
  const param = /\{([^}]+)\}/.exec(operation.path)?.[1] ?? 'id';
  return fillPath(operation.path, { [param]: id });
}

/** Ids of the link's records in a collection (one page of 1000). */
async function idsOf(run: RunContext, target: DeletionTarget, link: string): Promise<string[]> {
  const list = run.operations.find((op) => op.method === 'GET' && op.path === target.collection);
  const headers = list ? requiredHeaders(run, list) : {};
  const query = { link, page_size: '1000' };
  const answer = await run.http.request({ method: 'GET', url: target.collection, query, headers });
  const results = isObject(answer.json) && Array.isArray(answer.json.results) ? answer.json.results : [];
  return results.filter(isObject).flatMap((record) => (typeof record.id === 'string' ? [record.id] : []));
}

/** `count` records of the target, made in this run. */
export async function makeRecords(run: RunContext, target: DeletionTarget, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let source = 0; ids.length < count && source < count * MAX_SOURCES; source += 1) {
    const link = await registerLink(run, run.config.fixtures[target.kind ?? 'link']);
    if (target.kind === null) {
      ids.push(link.id);
      continue;
    }
    await seedCollection(run, target.collection, target.collection, link.id);
    ids.push(...(await idsOf(run, target, link.id)));
  }
  if (ids.length < count)
    fail(`set-up: could make only ${ids.length} of ${count} records in ${target.collection}`);
  return ids.slice(0, count);
}

const rateLimited = (operation: ApiOperation) =>
  operation.method === 'DELETE' && isObject(operation.raw['x-rate-limit']);

/** Whether the set-up session can make one record of a data collection (else a reason). */
async function probe(
  suite: SuiteContext,
  target: DeletionTarget & { kind: FixtureKind },
): Promise<string | undefined> {
  const link = await suite.fixtures.link(target.kind);
  if (isSkip(link)) return `no ${target.kind} link: ${link.skip}`;
  await seedCollection(suite, target.collection, target.collection, link);
  const records = await suite.fixtures.listAll(target.collection, { link });
  if (isSkip(records)) return records.skip;
  return records.length > 0
    ? undefined
    : `POST ${target.collection} made no record for a ${target.kind} link`;
}

/** The rate-limited DELETEs whose records the suite can make here; the others come back as notes. */
export async function deletionTargets(
  suite: SuiteContext,
  note: (text: string) => void,
): Promise<DeletionTarget[]> {
  const has = (method: string, path: string) =>
    suite.operations.some((op) => op.method === method && op.path === path);
  const targets: DeletionTarget[] = [];
  for (const operation of suite.operations.filter(rateLimited)) {
    const collection = collectionOf(operation.path);
    if (collection === LINKS) {
      if (has('POST', LINKS)) targets.push({ operationId: operation.operationId, collection, kind: null });
      continue;
    }
    const target = {
      operationId: operation.operationId,
      collection,
      kind: fixtureKindFor(suite, collection),
    };
    const reason = has('POST', collection)
      ? await probe(suite, target)
      : `no POST ${collection} left by the config`;
    if (reason) note(`${operation.operationId} left out: ${reason}`);
    else targets.push(target);
  }
  return targets;
}
