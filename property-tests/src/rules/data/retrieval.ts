/**
 * Retrievals (DATA-RETRIEVE) as the data rules send them: a body made of the link, a range of days or
 * years ending on the target's today, one value of each required enum and the document example's other
 * required members; the 201 answer checked against the document.
 */
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import type { HttpResponse, HttpSession } from '../../http/http-client.js';
import { describeAnswer, expectErrorArray, expectStatus, expectUsable } from '../expect-response.js';
import { fail, type SuiteContext } from '../rule.js';
import type { DataResource } from './data-resources.js';

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of a day number (days since 1970-01-01, UTC). */
export const dayText = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** The day number of a date or an instant (its date part). */
export const dayOf = (text: string) => Math.floor(Date.parse(`${text.slice(0, 10)}T00:00:00Z`) / DAY_MS);
export const yearOfDay = (day: number) => new Date(day * DAY_MS).getUTCFullYear();

/** A range that ends `back` days (or years) before today and spans `span` days (or years) more. */
export interface RangeChoice {
  back: number;
  span: number;
}

export interface BodyChoice {
  range?: RangeChoice;
  /** A value for each required enum member (default: the first). */
  enums?: Record<string, string>;
  /** `save_data: false`: records returned without being kept, where the body has the member. */
  discard?: boolean;
}

/**
 * The target's today: the date of the link's `created_at` (the target's own clock, which may differ
 * from this machine's), else this machine's.
 */
export async function targetToday(suite: SuiteContext, link: string): Promise<number> {
  const answer = await suite.http.request({ method: 'GET', url: `/api/links/${encodeURIComponent(link)}/` });
  const created = isObject(answer.json) ? answer.json.created_at : undefined;
  return typeof created === 'string' && !Number.isNaN(dayOf(created))
    ? dayOf(created)
    : dayOf(new Date().toISOString());
}

function rangeValues(resource: DataResource, today: number, choice: RangeChoice): JsonObject {
  const range = resource.range!;
  if (range.unit === 'year') {
    const to = yearOfDay(today) - choice.back;
    return { [range.from]: to - choice.span, [range.to]: to };
  }
  const to = today - choice.back;
  return { [range.from]: dayText(to - choice.span), [range.to]: dayText(to) };
}

/** A retrieval body for `link`; without a range choice only a required range is sent (90 days, 1 year). */
export function retrievalBody(
  resource: DataResource,
  link: string,
  today: number,
  choice: BodyChoice = {},
): JsonObject {
  const body: JsonObject = { ...resource.fixed, link };
  for (const [name, values] of resource.enums) body[name] = choice.enums?.[name] ?? values[0]!;
  const range = resource.range;
  if (range && (choice.range || range.required)) {
    const fallback = range.unit === 'year' ? { back: 0, span: 1 } : { back: 0, span: 89 };
    Object.assign(body, rangeValues(resource, today, choice.range ?? fallback));
  }
  if (choice.discard && resource.saveData) body.save_data = false;
  return body;
}

/**
 * A body whose range ends before it starts (`x-ordered-range`: the end a day, or a year, before the
 * start), which the retrieval refuses with 400; not kept where it would have been answered.
 */
export function reversedRangeBody(resource: DataResource, link: string, today: number): JsonObject {
  const ordered = resource.ordered!;
  const body = retrievalBody(resource, link, today, { discard: true });
  if (ordered.unit === 'year') {
    const from = yearOfDay(today) - 1;
    return { ...body, [ordered.from]: String(from), [ordered.to]: String(from - 1) };
  }
  return { ...body, [ordered.from]: dayText(today - 30), [ordered.to]: dayText(today - 31) };
}

/** The 400 (with the error array) a reversed range gets, where the retrieval orders its range. */
export function expectReversedRefused(
  run: SuiteContext,
  resource: DataResource,
  answer: HttpResponse,
  body: JsonObject,
) {
  const ordered = resource.ordered!;
  const what = `POST ${resource.path} with \`${ordered.to}\` before \`${ordered.from}\` (x-ordered-range): ${JSON.stringify(body)}`;
  expectStatus(answer, [400], what);
  expectErrorArray(run.document, answer, what);
}

export function postRetrieval(
  http: HttpSession,
  resource: DataResource,
  json: JsonObject,
): Promise<HttpResponse> {
  return http.request({ method: 'POST', url: resource.path, json });
}

/**
 * DATA-RETRIEVE: the records, valid against the document: a list, or the one record where the document
 * answers one (tax status, tax compliance status and incomes, as the provider does). 201 when they are
 * stored, 200 with `save_data: false` (nothing stored), as the provider answers.
 */
export function expectRetrieved(
  run: SuiteContext,
  resource: DataResource,
  answer: HttpResponse,
  body: JsonObject,
): JsonObject[] {
  const what = `POST ${resource.path} ${JSON.stringify(body)}`;
  const status = body.save_data === false ? 200 : 201;
  expectStatus(answer, [status], what);
  const schema = (resource.retrieve.responses.get(String(status)) ?? resource.retrieve.responses.get('201'))
    ?.schema;
  if (schema !== undefined) expectUsable(run.document, answer, schema, what);
  const shape = run.document.resolve(schema);
  if (isObject(shape) && shape.type !== 'array') {
    if (!isObject(answer.json)) fail(`${what}: wanted the one record, got ${describeAnswer(answer)}`);
    return [answer.json];
  }
  if (!Array.isArray(answer.json)) fail(`${what}: wanted a list of records, got ${describeAnswer(answer)}`);
  return answer.json.filter(isObject);
}

/** Retrieves and checks (set-up and runs alike). */
export async function retrieveRecords(
  run: SuiteContext,
  resource: DataResource,
  body: JsonObject,
): Promise<JsonObject[]> {
  return expectRetrieved(run, resource, await postRetrieval(run.http, resource, body), body);
}

/** EMPLOYMENT-METRICS-PREREQ: the retrieval the document names in `x-prerequisite`, made first. */
export async function makePrerequisite(
  suite: SuiteContext,
  resources: DataResource[],
  resource: DataResource,
  link: string,
  today: number,
): Promise<void> {
  const prerequisite = resource.retrieve.raw['x-prerequisite'];
  const path = isObject(prerequisite) ? prerequisite.retrieval : undefined;
  const first = resources.find((candidate) => candidate.path === path);
  if (first) await retrieveRecords(suite, first, retrievalBody(first, link, today));
}
