/**
 * LINK-DELETE-SYNC: a link of any fixture kind, with data retrieved through some of the retrievals that
 * serve it, deleted without `X-Service-Request-Mode`: 204, then its detail is 404 (with the error array)
 * and every list filtered by it is empty. Each deletion starts from an empty DELETE-RATE-LIMIT window.
 */
import fc from 'fast-check';
import type { FixtureKind } from '../../target/target-config.js';
import { expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule } from '../rule.js';
import { deleteLinkSync } from './deletion-window.js';
import {
  countLinkedRecords,
  expectNoLinkedData,
  type LinkedList,
  linkedLists,
  retrievalsByKind,
  retrieveData,
} from './link-data.js';
import { linkUrl, readLink, registerLink, registrationKinds } from './link-requests.js';

interface Input {
  kind: FixtureKind;
  /** Collections whose data is retrieved for the link before it is deleted. */
  retrievals: string[];
}

interface Fixture {
  lists: LinkedList[];
  retrievals: Map<FixtureKind, string[]>;
  /** Runs whose link held records when it was deleted, of all runs. */
  withData: number;
  runs: number;
}

export const linkDeleteSync = defineRule<Input, Fixture>({
  id: 'LINK-DELETE-SYNC',
  area: 'links',
  operations: ['registerLink', 'getLink', 'deleteLink'],
  tenantWide: 'clock',
  // With the example, 5 deletions: one DELETE-RATE-LIMIT window's worth on a target without a control API.
  runs: 4,
  async prepare(suite, note) {
    if (!suite.capabilities.controlApi) {
      note(
        'no control API clock: a deletion refused with 429 (DELETE-RATE-LIMIT) is sent again after the window',
      );
    }
    const retrievals = retrievalsByKind(suite, registrationKinds(suite));
    return { lists: linkedLists(suite), retrievals, withData: 0, runs: 0 };
  },
  arbitrary: (_, fixture) =>
    fc
      .constantFrom(...fixture.retrievals.keys())
      .chain((kind) =>
        fc.record({ kind: fc.constant(kind), retrievals: fc.subarray(fixture.retrievals.get(kind) ?? []) }),
      ),
  // A bank link with every retrieval that serves it: the most data to take along.
  examples: (_, fixture) => [{ kind: 'link', retrievals: fixture.retrievals.get('link') ?? [] }],
  async check(input, run, fixture) {
    const link = await registerLink(run, run.config.fixtures[input.kind]);
    await retrieveData(run, input.retrievals, link.id);
    const held = await countLinkedRecords(run, fixture.lists, link.id);
    fixture.runs += 1;
    if (held > 0) fixture.withData += 1;
    const what = `DELETE ${linkUrl(link.id)} without X-Service-Request-Mode`;
    expectStatus(await deleteLinkSync(run, link.id), [204], what);
    const detail = await readLink(run.http, link.id);
    expectStatus(detail, [404], `GET ${linkUrl(link.id)} after the 204`);
    expectErrorArray(run.document, detail, `GET ${linkUrl(link.id)} after the 204`);
    await expectNoLinkedData(run, fixture.lists, link.id, `after the 204 of ${what}`);
  },
  summarize: (fixture) => [
    `${fixture.withData} of ${fixture.runs} deleted links held records in the ${fixture.lists.length} lists checked`,
  ],
});
