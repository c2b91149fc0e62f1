/**
 * DATA-DELETE: for every data resource whose DELETE `P/{id}/` the document has (the conventions table's
 * "DELETE" column), deleting a listed record answers 204; the record is then gone: its detail answers
 * 404, the list `P/?link=` no longer holds it, and deleting it again answers 404. The rule works on links
 * of its own and retrieves again when a list runs empty.
 */
import fc from 'fast-check';
import { expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext, unmet } from '../rule.js';
import { isDataRetrieval } from './data-resources.js';
import {
  byPath,
  type Reachable,
  reachableResources,
  retrieveSome,
  seedEmpty,
  unreached,
} from './reachable.js';
import { type DeleteStats, deleteRecord, idOf, itemUrl, listByLink, rateLimitNote } from './records.js';

interface Input {
  path: string;
  /** Which listed record to delete (modulo the list's length). */
  pick: number;
}

interface Fixture {
  reachable: Reachable[];
  stats: DeleteStats;
}

/** The link's records of the resource, retrieved again when every one was deleted by earlier runs. */
async function recordsOf(run: RunContext, entry: Reachable) {
  const records = await listByLink(run.http, entry.resource.path, entry.link);
  if (records.length > 0) return records;
  await retrieveSome(run, entry);
  return listByLink(run.http, entry.resource.path, entry.link);
}

export const dataDelete = defineRule<Input, Fixture>({
  id: 'DATA-DELETE',
  area: 'data',
  over: isDataRetrieval,
  tenantWide: 'clock',
  async prepare(suite, note) {
    const reachable = await reachableResources(suite, note, {
      keep: (resource) => resource.remove !== undefined && resource.list !== undefined,
      fresh: true,
    });
    if (reachable.length === 0) return unreached(reachable, 'no data resource with a DELETE reachable');
    await seedEmpty(suite, reachable, note);
    return { reachable, stats: { rateLimited: 0 } };
  },
  arbitrary: (_, { reachable }) =>
    fc.record({ path: fc.constantFrom(...reachable.map(({ resource }) => resource.path)), pick: fc.nat() }),
  examples: (_, { reachable }) => reachable.map(({ resource }) => ({ path: resource.path, pick: 0 })),
  async check({ path, pick }, run, { reachable, stats }) {
    const entry = byPath(reachable, path);
    const { resource, link } = entry;
    const records = await recordsOf(run, entry);
    const record = records[pick % Math.max(records.length, 1)];
    if (!record) unmet(`GET ${path}?link=${link} listed no record to delete`);
    const url = itemUrl(path, idOf(record));
    const answer = await deleteRecord(run, resource.remove!, url, stats);
    expectStatus(answer, [204], `DELETE ${url} (listed by GET ${path}?link=${link})`);
    if (resource.detail) {
      const detail = await run.http.request({ method: 'GET', url });
      expectStatus(detail, [404], `GET ${url} after its DELETE answered 204`);
    }
    const listed = (await listByLink(run.http, path, link)).map(idOf);
    if (listed.includes(idOf(record)))
      fail(`GET ${path}?link=${link} still lists ${url} after its DELETE (204)`);
    const again = await deleteRecord(run, resource.remove!, url, stats);
    expectStatus(again, [404], `DELETE ${url} a second time`);
  },
  summarize: ({ stats }) => rateLimitNote(stats),
});
