/**
 * LINK-MFA-428's pauses: where a request waits for the institution's MFA token. The registration at the
 * config's MFA fixture; each retrieval that can be resumed (owners, accounts, transactions, invoices: a
 * PATCH on the collection whose body takes the `session`), made to ask for a token with the control
 * API's `institution_requires_token` switch at the link's institution, or, without the control API, by
 * a link of the MFA fixture, whose retrievals ask too; and, with the control API, a credentials update
 * (PUT `/api/links/{id}/`) the same switch makes ask, resumed on `/api/links/`. Every 428 is held to the
 * rule's item.
 */
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import type { HttpResponse } from '../../http/http-client.js';
import { registrationHint } from '../../target/registrations.js';
import type { Registration } from '../../target/target-config.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import { fixtureKindFor } from '../known-values.js';
import { isResume } from '../paused-retrieval.js';
import { fail, isSkip, type RunContext, type SuiteContext, unmet } from '../rule.js';
import { requiredHeaders, requiredOnly } from '../seed-collection.js';
import { expectDocumented, LINKS, linkUrl, registerLink } from './link-requests.js';

/** A request that can pause: the registration, a retrieval that PATCH resumes, a credentials update. */
export interface Pausable {
  /** What the rule's input names: the pausing collection, or `PUT /api/links/{id}/`. */
  key: string;
  /** The collection the PATCH resumes on. */
  path: string;
  /** The operationIds of the pausing request and of the resuming PATCH. */
  pauseId: string;
  resumeId: string;
  /** The institution the link is at (the resumed link must be there). */
  institution: string;
  /** Retrievals: the body without its link, the headers, the link to use. */
  retrieval?: { body: JsonObject; headers: Record<string, string>; link: string };
  /** A credentials update: the registration of the link to update (its password is the PUT's body). */
  credentials?: Registration;
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
  const registration = {
    key: LINKS,
    path: LINKS,
    pauseId: 'registerLink',
    resumeId: 'resumeLinkRegistration',
    institution: suite.config.fixtures.mfa.registration.institution,
  };
  const found: Pausable[] = [registration, ...credentialsUpdate(suite, note)];
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
      key: resume.path,
      path: resume.path,
      pauseId: retrieve.operationId,
      resumeId: resume.operationId,
      institution,
      retrieval: { body: isObject(body) ? body : {}, headers: requiredHeaders(suite, retrieve), link },
    });
  }
  return found;
}

/** The credentials update, paused through the control API's switch (none without the control API). */
function credentialsUpdate(suite: SuiteContext, note: (text: string) => void): Pausable[] {
  const have = (id: string) => suite.operations.some((op) => op.operationId === id);
  const registration = suite.config.fixtures.link;
  if (!have('updateLinkCredentials') || typeof registration.password !== 'string') return [];
  if (!suite.capabilities.controlApi) {
    note('credentials updates not paused: asking for a token there needs the control API switch');
    return [];
  }
  return [
    {
      key: `PUT ${LINKS}{id}/`,
      path: LINKS,
      pauseId: 'updateLinkCredentials',
      resumeId: 'resumeLinkRegistration',
      institution: registration.institution,
      credentials: registration,
    },
  ];
}

/** Arms a control API switch at `institution` for one use (LINK-MFA-428's token questions). */
export async function armOnce(run: RunContext, scenario: string, institution: string): Promise<void> {
  const json = { scenario, institution, count: 1 };
  const armed = await run.http.request({ method: 'POST', url: '/_ofkit/scenarios/', json });
  if (armed.status >= 300) fail(`control API: POST /_ofkit/scenarios/ answered ${describeAnswer(armed)}`);
}

/** The credentials update the institution asks a token for: a new link, then its PUT, answered 428. */
async function pauseCredentials(run: RunContext, pausable: Pausable, registration: Registration) {
  const link = await registerLink(run, registration);
  await armOnce(run, 'institution_requires_token', pausable.institution);
  const url = linkUrl(link.id);
  const answer = await run.http.request({
    method: 'PUT',
    url,
    json: { password: String(registration.password) },
  });
  const what = `PUT ${url} (the institution asks for a token)`;
  const paused = expectTokenRequired(answer, what);
  expectDocumented(run, answer, pausable.pauseId, what);
  if (paused.link !== link.id) fail(`${what}: the 428 names link ${paused.link}, not ${link.id}`);
  return paused;
}

/** The request that pauses at `pausable`, the 428 held to the rule; the session it opened. */
export async function pause(run: RunContext, pausable: Pausable): Promise<Paused> {
  const { retrieval, credentials } = pausable;
  if (credentials) return pauseCredentials(run, pausable, credentials);
  if (!retrieval) {
    const json = run.config.fixtures.mfa.registration;
    const answer = await run.http.request({ method: 'POST', url: LINKS, json });
    const what = `POST ${LINKS} with the MFA registration (${run.fixtures.describe(json)})`;
    // A registration the config does not give is a guess at the target's MFA trigger: no 428, no pause.
    if (answer.status !== 428 && !run.fixtures.given(json))
      unmet(`${what}: answered ${describeAnswer(answer)}, no pause to resume: ${registrationHint('mfa')}`);
    const paused = expectTokenRequired(answer, what);
    expectDocumented(run, answer, pausable.pauseId, what);
    return paused;
  }
  // Once, at the link's institution: the very next retrieval there asks for a token.
  if (run.capabilities.controlApi) await armOnce(run, 'institution_requires_token', pausable.institution);
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
