/**
 * LINK-MFA-428's pauses: where a request waits for the institution's MFA token. The registration at the
 * config's MFA fixture; and each retrieval that can be resumed (owners, accounts, transactions,
 * invoices: a PATCH on the collection whose body takes the `session`), made to ask for a token with the
 * control API's `institution_requires_token` switch at the link's institution, or, without the control
 * API, by a link of the MFA fixture, whose retrievals ask too. Every 428 is held to the rule's item.
 */
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import { fixtureKindFor } from '../known-values.js';
import { isResume } from '../paused-retrieval.js';
import { fail, isSkip, type RunContext, type SuiteContext, unmet } from '../rule.js';
import { requiredHeaders, requiredOnly } from '../seed-collection.js';
import { expectDocumented, LINKS } from './link-requests.js';

/** A collection whose requests can pause: the registration, or a retrieval that PATCH resumes. */
export interface Pausable {
  path: string;
  /** The operationIds of the pausing POST and of the resuming PATCH. */
  pauseId: string;
  resumeId: string;
  /** Retrievals: the body without its link, the headers, the link to use and its institution. */
  retrieval?: { body: JsonObject; headers: Record<string, string>; link: string; institution: string };
}

export interface Paused {
  session: string;
  /** Seconds the session lasts, when the item says (null: it does not). */
  expiry: number | null;
  /** The link the 428 names (for a registration, the link it created). */
  link: string;
}

/**
 * The members LINK-MFA-428 puts in the 428's item besides the error array's: `session` and `link`, what a
 * client needs to resume (the provider's SDK resumes with them); `expiry` and `token_generation_data`
 * when the institution gives them, each of its type.
 */
const ITEM_MEMBERS: [string, (value: unknown) => boolean, string][] = [
  ['session', (value) => typeof value === 'string' && value.length > 0, 'a string'],
  [
    'expiry',
    (value) => value === undefined || (Number.isInteger(value) && (value as number) >= 0),
    'an integer of seconds',
  ],
  ['link', (value) => typeof value === 'string' && value.length > 0, 'the link id'],
  ['token_generation_data', (value) => value === undefined || isObject(value), 'an object'],
];

/** LINK-MFA-428: a 428 whose one item has `code: token_required`, `session` and `link` (and `expiry`, `token_generation_data` well typed when given). */
export function expectTokenRequired(answer: HttpResponse, what: string): Paused {
  expectStatus(answer, [428], what);
  const item = Array.isArray(answer.json) ? answer.json[0] : undefined;
  if (!isObject(item) || item.code !== 'token_required')
    fail(`${what}: wanted an error item with code token_required, got ${describeAnswer(answer)}`);
  const wrong = ITEM_MEMBERS.filter(([name, valid]) => !valid(item[name])).map(
    ([name, , wanted]) =>
      `\`${name}\` (${wanted}) ${name in item ? `is ${JSON.stringify(item[name])}` : 'is missing'}`,
  );
  if (wrong.length > 0) fail(`${what}: the 428 item's ${wrong.join(', ')}: ${describeAnswer(answer)}`);
  const expiry = typeof item.expiry === 'number' ? item.expiry : null;
  return { session: String(item.session), expiry, link: String(item.link) };
}

/** Every collection whose requests can pause, with what a retrieval there needs. */
export async function pausables(suite: SuiteContext, note: (text: string) => void): Promise<Pausable[]> {
  const found: Pausable[] = [{ path: LINKS, pauseId: 'registerLink', resumeId: 'resumeLinkRegistration' }];
  const mfaLink = suite.capabilities.controlApi
    ? undefined
    : await suite.fixtures.register(suite.config.fixtures.mfa.registration);
  for (const resume of suite.operations.filter((op) => isResume(suite, op) && op.path !== LINKS)) {
    const retrieve = suite.operations.find((op) => op.method === 'POST' && op.path === resume.path);
    if (!retrieve) continue;
    const kind = fixtureKindFor(suite, resume.path);
    const link = mfaLink ?? (await suite.fixtures.link(kind));
    if (isSkip(link)) {
      note(`${resume.path} left out: no link to pause a retrieval of (${link.skip})`);
      continue;
    }
    const example = retrieve.body?.example;
    const body = isObject(example) ? requiredOnly(suite, retrieve, example) : {};
    const institution = suite.config.fixtures[kind].institution;
    found.push({
      path: resume.path,
      pauseId: retrieve.operationId,
      resumeId: resume.operationId,
      retrieval: {
        body: isObject(body) ? body : {},
        headers: requiredHeaders(suite, retrieve),
        link,
        institution,
      },
    });
  }
  return found;
}

/** The request that pauses at `pausable`, the 428 held to the rule; the session it opened. */
export async function pause(run: RunContext, pausable: Pausable): Promise<Paused> {
  const { retrieval } = pausable;
  if (!retrieval) {
    const json = run.config.fixtures.mfa.registration;
    const answer = await run.http.request({ method: 'POST', url: LINKS, json });
    const what = `POST ${LINKS} with the MFA registration of the config`;
    const paused = expectTokenRequired(answer, what);
    expectDocumented(run, answer, pausable.pauseId, what);
    return paused;
  }
  if (run.capabilities.controlApi) {
    // Once, at the link's institution: the very next retrieval there asks for a token.
    const json = { scenario: 'institution_requires_token', institution: retrieval.institution, count: 1 };
    const armed = await run.http.request({ method: 'POST', url: '/_ofkit/scenarios/', json });
    if (armed.status >= 300) fail(`control API: POST /_ofkit/scenarios/ answered ${describeAnswer(armed)}`);
  }
  const json = { ...retrieval.body, link: retrieval.link };
  const answer = await run.http.request({
    method: 'POST',
    url: pausable.path,
    json,
    headers: retrieval.headers,
  });
  const what = `POST ${pausable.path} ${JSON.stringify(json)} (the institution asks for a token)`;
  // Without the control API, the MFA link's retrievals are the config's way to pause: unmet when not.
  if (!run.capabilities.controlApi && answer.status !== 428)
    unmet(`${what}: answered ${answer.status}, no pause to resume`);
  const paused = expectTokenRequired(answer, what);
  expectDocumented(run, answer, pausable.pauseId, what);
  return paused;
}
