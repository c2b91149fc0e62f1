/**
 * The facts of one exchange about the links it touches, taken when it is observed (the log keeps them,
 * not the bodies they come from): the link a request concerns, who a registration registers (a digest
 * of institution and username), the status an answer shows a link in, and an error's `request_id`.
 * The link rules read them (CLIENT-NO-DUPLICATE-LINKS, CLIENT-MFA-RESUME, CLIENT-UPDATE-MODE), and
 * CLIENT-REQUEST-IDS-LOGGED the request id.
 */
import { hash } from 'node:crypto';
import type { SimRequest, SimResponse } from '../core/http-types.js';

/** What the log keeps of an exchange's links. */
export interface LinkFacts {
  /** The link the request concerns: `/api/links/{id}/...`, the body's `link`, or the query's. */
  link?: string;
  /** A registration's end-user at the institution: a digest, never the username itself. */
  registrant?: string;
  /** The status the answer shows a link in (a link's body, a 428's pending link, a refusal's). */
  linkStatus?: { id: string; status: string };
  /** The first error's `request_id` (ERR-BODY), which a client quotes to support. */
  requestId?: string;
}

const LINK_PATH = /^\/api\/links\/([^/]+)\//;
/** The operations whose success answers a link. */
const LINK_ANSWERS = new Set([
  'registerLink',
  'resumeLinkRegistration',
  'getLink',
  'updateLink',
  'updateLinkCredentials',
]);
/** A link id as the API makes them (a UUID); anything else a client sends is not kept as a fact. */
const LINK_ID = /^[\w-]{1,64}$/;
const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
type Members = Record<string, unknown>;
const members = (value: unknown): Members | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Members) : undefined;

/** The link a request concerns, if it names one. */
function linkOf(request: Pick<SimRequest, 'path' | 'query'>, body: Members | undefined) {
  return LINK_PATH.exec(request.path)?.[1] ?? text(body?.link) ?? text(request.query.get('link'));
}

/**
 * Who a registration registers: institution and username, digested (the same pair, the same digest;
 * the username itself stays out of the facts, as personal data).
 */
export function registrantOf(institution: string, username: string): string {
  return hash('sha256', `${institution}\n${username}`, 'hex').slice(0, 16);
}

/** Answers that show a link's status: its body, a paused registration's link, a refused retrieval's. */
function statusShown(
  operationId: string | null,
  response: Pick<SimResponse, 'status' | 'body'>,
  link: string | undefined,
): LinkFacts['linkStatus'] {
  const body = members(response.body);
  if (response.status < 300 && LINK_ANSWERS.has(operationId ?? '')) {
    const id = text(body?.id);
    const status = text(body?.status);
    return id && status ? { id, status } : undefined;
  }
  const error = Array.isArray(response.body) ? members(response.body[0]) : undefined;
  // LINK-MFA-428: a registration paused for a token left its link `unconfirmed`.
  if (response.status === 428 && operationId === 'registerLink' && text(error?.link))
    return { id: text(error?.link)!, status: 'unconfirmed' };
  // A retrieval of a link whose credentials stopped working (LINK-INVALID-CREDENTIALS).
  if (error?.code === 'invalid_credentials' && error.field === 'link' && link)
    return { id: link, status: 'invalid' };
  return undefined;
}

/** The link facts of one exchange; `body` is the request's parsed body (undefined when none). */
export function linkFacts(
  request: Pick<SimRequest, 'path' | 'query'>,
  response: Pick<SimResponse, 'status' | 'body'>,
  operationId: string | null,
  parsedBody: unknown,
): LinkFacts {
  const body = members(parsedBody);
  const facts: LinkFacts = {};
  const link = linkOf(request, body);
  if (link !== undefined && LINK_ID.test(link)) facts.link = link;
  const institution = text(body?.institution);
  const username = text(body?.username);
  if (operationId === 'registerLink' && institution && username)
    facts.registrant = registrantOf(institution, username);
  const shown = statusShown(operationId, response, link);
  if (shown) facts.linkStatus = shown;
  if (response.status >= 400 && Array.isArray(response.body)) {
    const requestId = text(members(response.body[0])?.request_id);
    if (requestId) facts.requestId = requestId;
  }
  return facts;
}
