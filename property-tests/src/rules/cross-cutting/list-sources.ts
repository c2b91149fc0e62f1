/**
 * The lists the pagination and filter laws walk: every collection list the target implements, with
 * records in it where the suite can make some (links registered; retrievals run for a link of an
 * institution that serves the resource). Lists that stay empty still count: the laws must hold there too.
 */
import fc from 'fast-check';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import { LINKS } from '../../../../openapi/http/api-paths.js';
import { fixtureKindFor } from '../known-values.js';
import { isSkip, type SuiteContext } from '../rule.js';
import { requiredHeaders, seedCollection } from '../seed-collection.js';

export interface ListSource {
  operationId: string;
  path: string;
  /** What every request of the list carries (the `link` a list requires, LIST-LINK-REQUIRED). */
  base: Record<string, string>;
  /** Headers the list requires (`X-Service-API-Resource-Version` on payment authorizations). */
  headers: Record<string, string>;
}

export const isCollectionList = (operation: ApiOperation) =>
  operation.method === 'GET' &&
  !operation.path.includes('{') &&
  operation.parameters.some((parameter) => parameter.name === 'page_size');

async function ensureLinks(suite: SuiteContext, atLeast: number): Promise<void> {
  const links = await suite.fixtures.listAll(LINKS);
  const missing = isSkip(links) ? 0 : atLeast - links.length;
  for (let index = 0; index < missing; index += 1) await suite.fixtures.register(suite.config.fixtures.link);
}

interface Planned {
  source: ListSource;
  link: string | undefined;
}

/** Each list with what its requests carry; a list that needs a link the target refused is left out. */
async function planSources(suite: SuiteContext, note: (text: string) => void): Promise<Planned[]> {
  const planned: Planned[] = [];
  for (const operation of suite.operations.filter(isCollectionList)) {
    const needsLink = operation.parameters.some((p) => p.name === 'link' && p.required);
    const link =
      needsLink || operation.path !== LINKS
        ? await suite.fixtures.link(fixtureKindFor(suite, operation.path))
        : undefined;
    if (needsLink && isSkip(link)) {
      note(`${operation.path} left out: it needs a link (${link.skip})`);
      continue;
    }
    const base: Record<string, string> = needsLink && typeof link === 'string' ? { link } : {};
    const headers = requiredHeaders(suite, operation);
    const source = { operationId: operation.operationId, path: operation.path, base, headers };
    planned.push({ source, link: typeof link === 'string' ? link : undefined });
  }
  return planned;
}

const isEmpty = async (suite: SuiteContext, { path, base, headers }: ListSource) => {
  const records = await suite.fixtures.listAll(path, base, headers);
  return !isSkip(records) && records.length === 0;
};

/**
 * The lists, populated where the suite can; `linksAtLeast` links are registered when fewer exist. The
 * lists are first read side by side (reads change nothing); one read empty is read again just before it
 * is seeded, in order, since seeding one list can fill another.
 */
export async function listSources(
  suite: SuiteContext,
  note: (text: string) => void,
  options: { linksAtLeast?: number } = {},
): Promise<ListSource[]> {
  const planned = await planSources(suite, note);
  const empty = await Promise.all(
    planned.map(({ source }) => (source.path === LINKS ? false : isEmpty(suite, source))),
  );
  for (const [index, { source, link }] of planned.entries()) {
    if (source.path === LINKS) await ensureLinks(suite, options.linksAtLeast ?? 12);
    else if (empty[index] && (await isEmpty(suite, source)))
      await seedCollection(suite, source.path, source.path, link);
  }
  return planned.map(({ source }) => source);
}

/** A list, by its operationId (counterexamples stay readable). */
export const sourceArbitrary = (sources: ListSource[]) => fc.constantFrom(...sources);
