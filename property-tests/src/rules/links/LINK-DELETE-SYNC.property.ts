import type { FixtureKind } from '../../target/target-config.js';
import { expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule } from '../rule.js';
import { deleteLinkSync } from './deletion-window.js';
import {
  countLinkedRecords,
  expectNoLinkedData,
  type LinkedList,
  type LinkWithData,
  linkedLists,
  linkWithDataArbitrary,
  registerWithData,
  retrievalsByKind,
  richestLink,
} from './link-data.js';
import { linkUrl, readLink, registrationKinds } from './link-requests.js';

/** The link deleted: its kind and the retrievals that gave it data. */
type Input = LinkWithData;

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
  arbitrary: (_, fixture) => linkWithDataArbitrary(fixture.retrievals),
  examples: (_, fixture) => richestLink(fixture.retrievals),
  async check(input, run, fixture) {
    const link = await registerWithData(run, input);
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
