/**
 * DATA-DETAIL: for every data resource with a detail operation, GET `P/{id}/` of a record the list
 * `P/?link=` holds answers 200 with that very record (the same members and values), valid against the
 * document; an id that names nothing answers 404 with the error array.
 */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { expectErrorArray, expectStatus, expectUsable } from '../expect-response.js';
import { defineRule, fail, unmet } from '../rule.js';
import { isDataRetrieval } from './data-resources.js';
import { byPath, type Reachable, reachableResources, seedEmpty, unreached } from './reachable.js';
import { itemUrl, listByLink } from './records.js';

interface Input {
  path: string;
  /** Which listed record (modulo the list's length). */
  pick: number;
  unknownId: string;
}

/** The members that differ between two records, for messages. */
function differences(listed: JsonObject, detail: JsonObject): string[] {
  const names = new Set([...Object.keys(listed), ...Object.keys(detail)]);
  return [...names].filter((name) => !isDeepStrictEqual(listed[name], detail[name]));
}

export const dataDetail = defineRule<Input, Reachable[]>({
  id: 'DATA-DETAIL',
  area: 'data',
  over: isDataRetrieval,
  async prepare(suite, note) {
    const reachable = await reachableResources(suite, note, {
      keep: (resource) => resource.detail !== undefined && resource.list !== undefined,
    });
    if (reachable.length === 0)
      return unreached(reachable, 'no data resource with a list and a detail reachable');
    await seedEmpty(suite, reachable, note);
    return reachable;
  },
  arbitrary: (_, reachable) =>
    fc.record({
      path: fc.constantFrom(...reachable.map(({ resource }) => resource.path)),
      pick: fc.nat(),
      unknownId: fc.uuid({ version: 4 }),
    }),
  examples: (_, reachable) =>
    reachable.map(({ resource }) => ({
      path: resource.path,
      pick: 0,
      unknownId: '00000000-0000-4000-8000-000000000000',
    })),
  async check({ path, pick, unknownId }, run, reachable) {
    const { resource, link } = byPath(reachable, path);
    const unknown = await run.http.request({ method: 'GET', url: itemUrl(path, unknownId) });
    expectStatus(unknown, [404], `GET ${itemUrl(path, unknownId)} (an id that names nothing)`);
    expectErrorArray(run.document, unknown, `GET ${itemUrl(path, unknownId)}`);
    const records = await listByLink(run.http, path, link);
    const listed = records[pick % Math.max(records.length, 1)];
    if (!listed) unmet(`GET ${path}?link=${link} listed no record to read`);
    const url = itemUrl(path, String(listed.id));
    const answer = await run.http.request({ method: 'GET', url });
    expectStatus(answer, [200], `GET ${url} (listed by GET ${path}?link=${link})`);
    const schema = resource.detail?.responses.get('200')?.schema;
    if (schema !== undefined) expectUsable(run.document, answer, schema, `GET ${url}`);
    const detail = answer.json as JsonObject;
    const differ = differences(listed, detail);
    if (differ.length > 0) {
      const shown = differ
        .slice(0, 3)
        .map(
          (name) => `${name}: list ${JSON.stringify(listed[name])}, detail ${JSON.stringify(detail[name])}`,
        );
      fail(`GET ${url} differs from the record GET ${path}?link=${link} lists: ${shown.join('; ')}`);
    }
  },
});
