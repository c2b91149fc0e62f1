/**
 * LINK-MFA-428: a POST the institution pauses for a token (428 with a `session` in the error item) is
 * resumed by PATCH on the same collection with `{session, token, link}` (`link` from the 428 item).
 */
import type { JsonObject } from '../../../../openapi/document/json.js';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, errorItems } from '../expect-response.js';
import { fail } from '../rule.js';
import type { ModelTarget } from './model-target.js';

export interface Resumed {
  /** The answer of the POST. */
  first: HttpResponse;
  /** The answer of the PATCH that resumed it, when the POST was paused. */
  resumed: HttpResponse | null;
}

/** The `session` of a 428, or a Violation. */
function sessionOf(response: HttpResponse, what: string): string {
  const item = errorItems(response)[0] as { session?: unknown } | undefined;
  if (typeof item?.session !== 'string') {
    fail(
      `${what}: LINK-MFA-428: a 428 carries a \`session\` in its error item, got ${describeAnswer(response)}`,
    );
  }
  return item.session;
}

/** POSTs `body` to `path`; on 428 resumes it with the configured MFA token. */
export async function postResumable(
  target: ModelTarget,
  path: string,
  body: JsonObject,
  what: string,
): Promise<Resumed> {
  const first = await target.http.request({ method: 'POST', url: path, json: body });
  if (first.status !== 428) return { first, resumed: null };
  const resume: JsonObject = { session: sessionOf(first, what), token: target.config.fixtures.mfa.token };
  // LINK-MFA-428: the link the session belongs to: the 428 item's (a registration's new link), else the body's.
  const itemLink = (errorItems(first)[0] as { link?: unknown } | undefined)?.link;
  if (typeof itemLink === 'string') resume.link = itemLink;
  else if (typeof body.link === 'string') resume.link = body.link;
  const resumed = await target.http.request({ method: 'PATCH', url: path, json: resume });
  return { first, resumed };
}

/** The answer that carries the result: the resume's when there was one. */
export const finalAnswer = (result: Resumed) => result.resumed ?? result.first;
