/**
 * State the rules share, set up through the API itself: links registered with the config's fixtures
 * (resumed with the MFA token when the institution asks for one, LINK-MFA-428) and whole lists read
 * page by page. Anything that cannot be set up comes back as a reason, never as an exception.
 */
import { isObject, type JsonObject } from '../../../openapi/document/json.js';
import { LINKS } from '../../../openapi/http/api-paths.js';
import type { HttpSession } from '../http/http-client.js';
import { type Skip, skip } from '../rules/skip.js';
import type { FixtureKind, Registration, TargetConfig } from './target-types.js';

export interface Fixtures {
  /** A live link of `kind`: registered on first use, registered again when it has gone. */
  link(kind: FixtureKind): Promise<string | Skip>;
  /** Registers a new link; its id, or why it could not be registered. */
  register(registration: Registration): Promise<string | Skip>;
  /** Every record of a list (all pages, PAGE-MAX size), or why it could not be read. */
  listAll(
    path: string,
    query?: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<JsonObject[] | Skip>;
}

const MAX_PAGES = 50;
const PAGE_SIZE = '1000';

/** `id` of a JSON object answer, when it has one. */
function idOf(body: unknown): string | undefined {
  return isObject(body) && typeof body.id === 'string' ? body.id : undefined;
}

export function createFixtures(config: TargetConfig, http: HttpSession): Fixtures {
  const links = new Map<FixtureKind, string>();

  async function resume(item: Record<string, unknown>, registration: Registration): Promise<string | Skip> {
    const { session, link } = item;
    if (typeof session !== 'string')
      return skip(`registering ${registration.institution}: 428 without a session`);
    // LINK-MFA-428: the 428 item names the link it created; the resume sends it back.
    const json = { session, token: config.fixtures.mfa.token, ...(typeof link === 'string' && { link }) };
    const answer = await http.request({ method: 'PATCH', url: LINKS, json });
    return (
      idOf(answer.json) ?? skip(`resuming ${registration.institution} with the MFA token: ${answer.status}`)
    );
  }

  async function register(registration: Registration): Promise<string | Skip> {
    const answer = await http.request({ method: 'POST', url: LINKS, json: registration });
    if (answer.status === 201) {
      return idOf(answer.json) ?? skip(`registering ${registration.institution}: 201 without an id`);
    }
    const first = Array.isArray(answer.json) ? answer.json[0] : undefined;
    if (answer.status === 428 && isObject(first)) return resume(first, registration);
    return skip(`registering a link at ${registration.institution} answered ${answer.status}`);
  }

  async function link(kind: FixtureKind): Promise<string | Skip> {
    const known = links.get(kind);
    if (known) {
      const answer = await http.request({ method: 'GET', url: `${LINKS}${encodeURIComponent(known)}/` });
      if (answer.status === 200) return known;
    }
    const registered = await register(config.fixtures[kind]);
    if (typeof registered === 'string') links.set(kind, registered);
    return registered;
  }

  async function listAll(
    path: string,
    query: Record<string, string> = {},
    headers: Record<string, string> = {},
  ): Promise<JsonObject[] | Skip> {
    const records: JsonObject[] = [];
    for (let page = 1; page <= MAX_PAGES; page += 1) {
      const answer = await http.request({
        method: 'GET',
        url: path,
        query: { ...query, page: String(page), page_size: PAGE_SIZE },
        headers,
      });
      const body = answer.json;
      if (answer.status !== 200 || !isObject(body) || !Array.isArray(body.results)) {
        return skip(`GET ${path} page ${page} answered ${answer.status} without a page of results`);
      }
      records.push(...body.results.filter(isObject));
      if (body.next === null || body.results.length === 0) return records;
    }
    return records;
  }

  return { link, register, listAll };
}
