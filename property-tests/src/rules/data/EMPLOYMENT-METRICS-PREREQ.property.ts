/**
 * EMPLOYMENT-METRICS-PREREQ: the retrieval with an `x-prerequisite` (employment metrics) answers 400
 * with the error array for a new link of the offering institution before any retrieval of the
 * prerequisite (employment records), and for a link of a Mexican employment institution that does not
 * offer metrics (`fixtures.employmentNoMetrics`) even after it; a new link of the offering institution
 * (`fixtures.employmentMetrics`) gets 201 once its employment records were retrieved (naming one or not).
 * The sandbox half ("not available on the sandbox institution") is not observable in production.
 */
import fc from 'fast-check';
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import { expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, isSkip, type RunContext, skip } from '../rule.js';
import { type DataResource, dataResources } from './data-resources.js';
import { registerInRun } from './fresh-link.js';
import { expectRetrieved, postRetrieval, retrievalBody, retrieveRecords } from './retrieval.js';

type Case = 'no-prerequisite' | 'other-institution' | 'after-prerequisite';

interface Input {
  case: Case;
  /** After the prerequisite: name the retrieved record in the body (when the body has the member). */
  naming: boolean;
}

interface Fixture {
  metrics: DataResource;
  prerequisite: DataResource;
  /** A link of the non-offering institution, or why there is none. */
  other: string | null;
}

/** Neither retrieval has a date range, so the target's today plays no part in their bodies. */
const NO_RANGE_TODAY = 0;

const CASES: Case[] = ['no-prerequisite', 'other-institution', 'after-prerequisite'];

async function refused(run: RunContext, metrics: DataResource, link: string, why: string): Promise<void> {
  const body = retrievalBody(metrics, link, NO_RANGE_TODAY);
  const answer = await postRetrieval(run.http, metrics, body);
  const what = `POST ${metrics.path} ${JSON.stringify(body)} ${why}`;
  expectStatus(answer, [400], what);
  expectErrorArray(run.document, answer, what);
}

/** The member of the metrics body that names a prerequisite record (`employment_record`), if any. */
function namingMember(metrics: DataResource, prerequisite: DataResource): string | undefined {
  const body = metrics.retrieve.body?.example;
  const member = prerequisite.path.split('/').at(-2)?.replace(/s$/, '').replaceAll('-', '_');
  return member && isObject(body) && member in body ? member : undefined;
}

export const employmentMetricsPrereq = defineRule<Input, Fixture>({
  id: 'EMPLOYMENT-METRICS-PREREQ',
  area: 'data',
  operations: ['retrieveEmploymentMetrics', 'retrieveEmploymentRecords'],
  runs: 6,
  async prepare(suite, note) {
    const all = dataResources(suite);
    const metrics = all.find((resource) => isObject(resource.retrieve.raw['x-prerequisite']));
    const path = isObject(metrics?.retrieve.raw['x-prerequisite'])
      ? metrics.retrieve.raw['x-prerequisite'].retrieval
      : undefined;
    const prerequisite = all.find((resource) => resource.path === path);
    if (!metrics || !prerequisite) return skip('no retrieval with an `x-prerequisite` left by the config');
    const other = await suite.fixtures.link('employmentNoMetrics');
    if (isSkip(other)) note(`the non-offering institution half is left out: ${other.skip}`);
    else await retrieveRecords(suite, prerequisite, retrievalBody(prerequisite, other, NO_RANGE_TODAY));
    return { metrics, prerequisite, other: isSkip(other) ? null : other };
  },
  arbitrary: (_, { other }) =>
    fc.record({
      case: fc.constantFrom(...CASES.filter((c) => other !== null || c !== 'other-institution')),
      naming: fc.boolean(),
    }),
  examples: (_, { other }) =>
    CASES.filter((c) => other !== null || c !== 'other-institution').map((c) => ({ case: c, naming: false })),
  async check(input, run, { metrics, prerequisite, other }) {
    if (input.case === 'other-institution' && other !== null) {
      await retrieveRecords(run, prerequisite, retrievalBody(prerequisite, other, NO_RANGE_TODAY));
      return refused(run, metrics, other, 'for a link of an institution that does not offer them');
    }
    const link = await registerInRun(run, run.config.fixtures.employmentMetrics);
    if (input.case === 'no-prerequisite') {
      return refused(run, metrics, link, `before any ${prerequisite.path} retrieval for the new link`);
    }
    const records = await retrieveRecords(
      run,
      prerequisite,
      retrievalBody(prerequisite, link, NO_RANGE_TODAY),
    );
    const member = namingMember(metrics, prerequisite);
    const body: JsonObject = retrievalBody(metrics, link, NO_RANGE_TODAY);
    if (input.naming && member && records[0]) body[member] = String(records[0].id);
    expectRetrieved(run, metrics, await postRetrieval(run.http, metrics, body), body);
  },
});
