/**
 * The state a resume operation needs (PATCH on a data collection, LINK-MFA-428): a retrieval paused
 * with 428 `token_required`, whose session and the config's token make the body that resumes it (API
 * coverage: every operation must be able to show its success status). With the control API
 * the pause is asked for (`institution_requires_token` at the link's institution, once); without it the config's
 * MFA fixture link is tried, which pauses where its institution serves the collection.
 */
import { isObject, type JsonObject } from '../../../openapi/document/json.js';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { LINKS } from '../../../openapi/http/api-paths.js';
import { fixtureKindFor } from './known-values.js';
import { isSkip, type SuiteContext } from './rule.js';
import { requiredHeaders, requiredOnly } from './seed-collection.js';

/** The session of a registration at the config's MFA fixture (428), not resumed. */
async function pausedRegistration(
  suite: SuiteContext,
  note: (text: string) => void,
): Promise<JsonObject | undefined> {
  const json = suite.config.fixtures.mfa.registration;
  const answer = await suite.http.request({ method: 'POST', url: LINKS, json });
  const first = Array.isArray(answer.json) ? answer.json[0] : undefined;
  if (answer.status !== 428 || !isObject(first) || typeof first.session !== 'string') {
    note(`registering the MFA fixture answered ${answer.status}, not 428: no paused registration`);
    return undefined;
  }
  // LINK-MFA-428: the resume names the link the 428 created (the provider's `{session, link, token}`).
  const resume: JsonObject = { session: first.session, token: suite.config.fixtures.mfa.token };
  if (typeof first.link === 'string') resume.link = first.link;
  return resume;
}

/** A resume operation: PATCH on a collection whose body carries the MFA `session`. */
export function isResume(suite: SuiteContext, operation: ApiOperation): boolean {
  if (operation.method !== 'PATCH' || operation.path.includes('{')) return false;
  const body = suite.document.resolve(operation.body?.schema);
  return isObject(body) && isObject(body.properties) && 'session' in body.properties;
}

async function pausingLink(suite: SuiteContext, path: string): Promise<string | undefined> {
  if (!suite.capabilities.controlApi) {
    const link = await suite.fixtures.register(suite.config.fixtures.mfa.registration);
    return isSkip(link) ? undefined : link;
  }
  const kind = fixtureKindFor(suite, path);
  const link = await suite.fixtures.link(kind);
  if (isSkip(link)) return undefined;
  // Once, at the link's institution: the very next retrieval there pauses.
  const { institution } = suite.config.fixtures[kind];
  const scenario = { scenario: 'institution_requires_token', institution, count: 1 };
  const answer = await suite.http.request({ method: 'POST', url: '/_ofkit/scenarios/', json: scenario });
  return answer.status < 300 ? link : undefined;
}

/** The body that resumes a paused retrieval of `resume`'s collection, or undefined (with a note). */
export async function pausedRetrieval(
  suite: SuiteContext,
  resume: ApiOperation,
  note: (text: string) => void,
): Promise<JsonObject | undefined> {
  if (resume.path === LINKS) return pausedRegistration(suite, note);
  const retrieve = suite.operations.find((op) => op.method === 'POST' && op.path === resume.path);
  const link = retrieve ? await pausingLink(suite, resume.path) : undefined;
  if (!retrieve || !link) {
    note(`no paused retrieval of ${resume.path} could be set up: its success status is not tried`);
    return undefined;
  }
  const example = retrieve.body?.example;
  const base = isObject(example) ? requiredOnly(suite, retrieve, example) : {};
  const json = { ...(isObject(base) ? base : {}), link };
  const headers = requiredHeaders(suite, retrieve);
  const answer = await suite.http.request({ method: 'POST', url: resume.path, json, headers });
  const first = Array.isArray(answer.json) ? answer.json[0] : undefined;
  if (answer.status !== 428 || !isObject(first) || typeof first.session !== 'string') {
    note(`POST ${resume.path} for a link that should ask for a token answered ${answer.status}, not 428`);
    return undefined;
  }
  return { session: first.session, token: suite.config.fixtures.mfa.token, link };
}
