/**
 * DATA-RETRIEVE: for every data resource the fixtures reach, POST `P/` with the link (a range and enum
 * values generated within what the document allows) answers 201 with a list valid against the document,
 * and every record it returned is then listed by GET `P/?link=`; with `save_data: false` it answers 200
 * with the records, which it does not keep (tried once for every resource whose body has the member).
 * A retrieval that orders its range (`x-ordered-range`, where it states no `x-max-range-days`: RANGE-365
 * checks those) answers a range ending before it starts with 400 and the error array (tried once for
 * each). LINK-REGISTER's half is checked here too: the same retrieval for a link that was never
 * registered gets 400 or 404 with the error array.
 */
import fc from 'fast-check';
import { expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, fail, type SuiteContext } from '../rule.js';
import { type DataResource, documentNumber, isDataRetrieval } from './data-resources.js';
import {
  acceptedRange,
  byPath,
  enumChoice,
  type Reachable,
  reachableResources,
  unreached,
} from './reachable.js';
import { idOf, listByLink } from './records.js';
import {
  expectRetrieved,
  expectReversedRefused,
  postRetrieval,
  type RangeChoice,
  retrievalBody,
  reversedRangeBody,
} from './retrieval.js';

interface Input {
  path: string;
  /** A link id nobody registered, or null for the fixture's link. */
  unknownLink: string | null;
  range: RangeChoice | null;
  enums: Record<string, string>;
  /** `save_data: false`: the records come back (200) without being kept. */
  discard: boolean;
  /** The range ends before it starts (`x-ordered-range`): 400. */
  reversed: boolean;
}

/** Whether this rule checks the resource's reversed range (RANGE-365 does where a limit is stated). */
const checksReversed = (suite: SuiteContext, resource: DataResource) =>
  resource.ordered !== null && documentNumber(suite, resource.retrieve, 'x-max-range-days') === null;

export const dataRetrieve = defineRule<Input, Reachable[]>({
  id: 'DATA-RETRIEVE',
  area: 'data',
  over: isDataRetrieval,
  async prepare(suite, note) {
    const reachable = await reachableResources(suite, note);
    return reachable.length === 0
      ? unreached(reachable, "no data retrieval reachable with the run's registrations")
      : reachable;
  },
  arbitrary: (suite, reachable) =>
    fc.constantFrom(...reachable).chain(({ resource }) =>
      fc.record({
        path: fc.constant(resource.path),
        // One run in four asks for a link nobody registered (LINK-REGISTER).
        unknownLink: fc.oneof(
          { weight: 3, arbitrary: fc.constant(null) },
          { weight: 1, arbitrary: fc.uuid({ version: 4 }) },
        ),
        range: resource.range ? fc.option(acceptedRange(suite, resource), { freq: 4 }) : fc.constant(null),
        enums: enumChoice(resource),
        discard: resource.saveData ? fc.boolean() : fc.constant(false),
        reversed: checksReversed(suite, resource)
          ? fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, fc.constant(true))
          : fc.constant(false),
      }),
    ),
  // Every reachable resource once with its default body, once not saved where it can be, and once with
  // its range reversed where it orders it.
  examples: (suite, reachable) =>
    reachable.flatMap(({ resource }) => {
      const base = {
        ...{ path: resource.path, unknownLink: null, range: null, enums: {} },
        ...{ discard: false, reversed: false },
      };
      return [
        base,
        ...(resource.saveData ? [{ ...base, discard: true }] : []),
        ...(checksReversed(suite, resource) ? [{ ...base, reversed: true }] : []),
      ];
    }),
  async check(input, run, reachable) {
    const { resource, link, today } = byPath(reachable, input.path);
    if (input.reversed && input.unknownLink === null) {
      const body = reversedRangeBody(resource, link, today);
      return expectReversedRefused(run, resource, await postRetrieval(run.http, resource, body), body);
    }
    const choice = {
      enums: input.enums,
      discard: input.discard,
      ...(input.range ? { range: input.range } : {}),
    };
    const body = retrievalBody(resource, input.unknownLink ?? link, today, choice);
    const answer = await postRetrieval(run.http, resource, body);
    if (input.unknownLink !== null) {
      // LINK-REGISTER: a link must exist before any of its data can be read.
      const what = `POST ${resource.path} for the unregistered link ${input.unknownLink}`;
      expectStatus(answer, [400, 404], what);
      expectErrorArray(run.document, answer, what);
      return;
    }
    const records = expectRetrieved(run, resource, answer, body);
    // Not kept: whether the records were stored before is another retrieval's business.
    if (!resource.list || input.discard) return;
    const listed = new Set((await listByLink(run.http, resource.path, link)).map(idOf));
    const missing = records.map(idOf).filter((id) => !listed.has(id));
    if (missing.length > 0) {
      fail(
        `POST ${resource.path} returned ${records.length} records; GET ${resource.path}?link=${link} does not list ${missing.length} of them: ${missing.slice(0, 5).join(', ')}`,
      );
    }
  },
});
