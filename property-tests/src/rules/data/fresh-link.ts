/**
 * A new link registered inside a run, through its recording session, so that a failure's curl
 * reproduction starts from the registration (a rule that needs a link without history registers one).
 */
import { isObject } from '../../../../openapi/document/json.js';
import { LINKS } from '../../../../openapi/http/api-paths.js';
import type { HttpResponse } from '../../http/http-client.js';
import type { Registration } from '../../target/target-config.js';
import { describeAnswer } from '../expect-response.js';
import { refusedRegistration } from '../refused-registration.js';
import { fail, type RunContext } from '../rule.js';

const idOf = (answer: HttpResponse) =>
  isObject(answer.json) && typeof answer.json.id === 'string' ? answer.json.id : undefined;

/** Registers `registration` (resumed with the MFA token on 428, LINK-MFA-428); the link id. */
export async function registerInRun(run: RunContext, registration: Registration): Promise<string> {
  const answer = await run.http.request({ method: 'POST', url: LINKS, json: registration });
  refusedRegistration(run, registration, answer);
  const first = Array.isArray(answer.json) ? answer.json[0] : undefined;
  let id = answer.status === 201 ? idOf(answer) : undefined;
  if (answer.status === 428 && isObject(first) && typeof first.session === 'string') {
    const json: Record<string, string> = { session: first.session, token: run.config.fixtures.mfa.token };
    if (typeof first.link === 'string') json.link = first.link; // LINK-MFA-428: the link the 428 created
    id = idOf(await run.http.request({ method: 'PATCH', url: LINKS, json }));
  }
  if (id === undefined)
    fail(`registering a link at ${run.fixtures.describe(registration)}: ${describeAnswer(answer)}`);
  return id;
}
