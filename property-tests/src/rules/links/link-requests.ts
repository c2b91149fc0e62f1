/**
 * Link requests the links-area rules share, sent through a run's recording session so that a failure's
 * curl reproduction holds the whole story: registrations from the config's fixtures (LINK-REGISTER),
 * reads of a link, and the operations a rule cannot do without.
 */
import fc from 'fast-check';
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import { LINKS } from '../../../../openapi/http/api-paths.js';
import type { HttpResponse, HttpSession } from '../../http/http-client.js';
import type { FixtureKind, Registration } from '../../target/target-config.js';
import { describeAnswer, expectStatus, expectUsable } from '../expect-response.js';
import { refusedRegistration } from '../refused-registration.js';
import { fail, type RunContext, type SuiteContext } from '../rule.js';

export { LINKS };

/** `/api/links/{id}/`, or one of its sub-resources (`refresh/`). */
export const linkUrl = (id: string, rest = '') => `${LINKS}${encodeURIComponent(id)}/${rest}`;

/**
 * The fixture kinds that register a link straight away (every one but the MFA registration), less those
 * the target lists no institution for (registrations.ts).
 */
export function registrationKinds(suite: SuiteContext): FixtureKind[] {
  const { mfa: _mfa, ...kinds } = suite.config.fixtures;
  return (Object.keys(kinds) as FixtureKind[]).filter((kind) => !suite.fixtures.absent.has(kind));
}

/** A kind of registration, as a fast-check input (counterexamples name the kind, not the credentials). */
export const kindArbitrary = (kinds: readonly FixtureKind[]) => fc.constantFrom(...kinds);

/** The JSON schema of an operation's response, when the document gives one. */
export function responseSchema(suite: SuiteContext, operationId: string, status: string) {
  return suite.document.operation(operationId)?.responses.get(status)?.schema;
}

/** The body validates against the operation's documented response (when it documents one). */
export function expectDocumented(
  run: RunContext,
  response: HttpResponse,
  operationId: string,
  what: string,
): void {
  const schema = responseSchema(run, operationId, String(response.status));
  if (schema !== undefined) expectUsable(run.document, response, schema, what);
}

/** The link an answer carries, when it is a JSON object with an id. */
export function linkOf(response: HttpResponse, what: string): JsonObject & { id: string } {
  const body = response.json;
  if (!isObject(body) || typeof body.id !== 'string')
    fail(`${what}: no link id in ${describeAnswer(response)}`);
  return body as JsonObject & { id: string };
}

/** LINK-REGISTER: POST /api/links/ answers 201 with a valid link; the link, or a Violation. */
export async function registerLink(
  run: RunContext,
  registration: Registration,
  extra: JsonObject = {},
): Promise<JsonObject & { id: string }> {
  const json = { ...registration, ...extra };
  const response = await run.http.request({ method: 'POST', url: LINKS, json });
  const what = `registering a link at ${run.fixtures.describe(registration)} (POST ${LINKS})`;
  refusedRegistration(run, registration, response);
  expectStatus(response, [201], what);
  expectDocumented(run, response, 'registerLink', what);
  return linkOf(response, what);
}

/** GET /api/links/{id}/. */
export const readLink = (http: HttpSession, id: string) => http.request({ method: 'GET', url: linkUrl(id) });

/** The link's stored `status`, read back with GET /api/links/{id}/ (200 wanted). */
export async function linkStatus(run: RunContext, id: string): Promise<unknown> {
  const response = await readLink(run.http, id);
  expectStatus(response, [200], `GET ${linkUrl(id)}`);
  return linkOf(response, `GET ${linkUrl(id)}`).status;
}
