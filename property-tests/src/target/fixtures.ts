/**
 * State the rules share, set up through the API itself: links registered with the run's registrations
 * (registrations.ts: the config's, the defaults, or the target's own institutions; resumed with the MFA
 * token when the institution asks for one, LINK-MFA-428) and whole lists read page by page. Anything that
 * cannot be set up comes back as a reason, never as an exception: a registration the target refuses
 * (400) or has no institution for is `notSetUp`, naming where it came from and how to give one that works.
 */
import { isObject, type JsonObject } from '../../../openapi/document/json.js';
import { LINKS } from '../../../openapi/http/api-paths.js';
import type { HttpSession } from '../http/http-client.js';
import { notSetUp, type Skip, skip } from '../rules/skip.js';
import { type Registrations, registrationHint } from './registrations.js';
import type { FixtureKind, Registration, TargetConfig } from './target-types.js';

export interface Fixtures {
  /** The fixture kind a registration is (by institution and username), or `mfa`; undefined for another. */
  kindOf(registration: Registration): string | undefined;
  /** `institution (where it came from)`, for messages. */
  describe(registration: Registration): string;
  /** The config names this registration (a refusal of it is the config's to fix, or the target's fault). */
  given(registration: Registration): boolean;
  /** The kinds the target offers no institution for (and the config names none of). */
  absent: ReadonlySet<FixtureKind>;
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

/** The first error item's message, for a refusal. */
function refusalOf(body: unknown): string {
  const first = Array.isArray(body) ? body[0] : undefined;
  return isObject(first) && typeof first.message === 'string' ? `: ${first.message}` : '';
}

export function createFixtures(
  config: TargetConfig,
  http: HttpSession,
  registrations: Registrations,
): Fixtures {
  const links = new Map<FixtureKind, string>();
  const same = (a: Registration, b: Registration) =>
    a.institution === b.institution && a.username === b.username;
  const kindOf = (registration: Registration) =>
    same(registration, config.fixtures.mfa.registration)
      ? 'mfa'
      : Object.keys(WANTED_KINDS(config)).find((kind) =>
          same(registration, config.fixtures[kind as FixtureKind]),
        );
  const describe = (registration: Registration) => {
    const kind = kindOf(registration);
    const source = kind === undefined ? undefined : registrations.sources[kind];
    return source === undefined ? registration.institution : `${registration.institution} (${source})`;
  };
  const given = (registration: Registration) => registrations.given.has(kindOf(registration) ?? '');

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
    const refused = `registering a link at ${describe(registration)} answered ${answer.status}${refusalOf(answer.json)}`;
    if (answer.status !== 400) return skip(refused);
    return notSetUp(`${refused}: ${registrationHint(kindOf(registration) ?? 'link')}`);
  }

  async function link(kind: FixtureKind): Promise<string | Skip> {
    if (registrations.absent.has(kind))
      return notSetUp(`no ${kind} registration: ${registrations.sources[kind]}: ${registrationHint(kind)}`);
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

  return { kindOf, describe, given, absent: registrations.absent, link, register, listAll };
}

/** The fixture kinds of the config (every member of `fixtures` but `mfa`). */
const WANTED_KINDS = (config: TargetConfig) => {
  const { mfa: _mfa, ...kinds } = config.fixtures;
  return kinds;
};
