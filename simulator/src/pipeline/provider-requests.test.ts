/**
 * Requests the provider's published schema accepts (the project's facts of it,
 * openapi/checks/provider-facts.json) are not refused by the simulator, unless the document is
 * stricter there for a reason the specification gives (openapi/checks/provider-differences.yaml, which
 * `npm run check:openapi` holds to the spec). On every operation both share: each query parameter the
 * provider declares, and each member of each retrieval's body, given a value of the provider's type at
 * its edge (a number filter that is no number, a page of 0, a free text where the provider states no
 * values); a parameter whose difference is cited is shown refused with 400 naming it instead.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { LINKS } from '../../../openapi/http/api-paths.js';
import {
  type CallOptions,
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import {
  acceptedText,
  acceptedValues,
  citedMembers,
  type SharedOperation,
  sharedOperations,
} from '../../test-support/provider-requests.js';
import {
  type LinkKind,
  RETRIEVALS,
  recordsOf,
  registerLink,
  retrieve,
} from '../../test-support/test-links.js';

const SHARED = sharedOperations();
const BANK_REGISTRATION = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };

let sim: CheckedSimulator;
let cited: Set<string>;
const links = new Map<LinkKind, string>();
/** A record of each collection, for the details. */
const recordIds = new Map<string, string>();

const retrievalOf = (path: string) => RETRIEVALS.find((r) => r.path === path);

beforeAll(async () => {
  sim = await contractCheckedSimulator('provider-requests');
  cited = citedMembers(sim.simulator.document);
  for (const { path, kind, body } of RETRIEVALS) {
    if (!SHARED.some((op) => op.path === path)) continue;
    if (!links.has(kind)) links.set(kind, await registerLink(sim, kind));
    const [first] = recordsOf((await retrieve(sim, path, links.get(kind)!, body)).body);
    recordIds.set(path, first.id);
  }
  if (!links.has('bank')) links.set('bank', await registerLink(sim, 'bank'));
}, 60_000);

const collectionOf = (path: string) => path.replace(/\{id\}\/$/, '');
const linkOf = (path: string) => {
  const kind = retrievalOf(collectionOf(path))?.kind;
  return links.get(kind ?? 'bank')!;
};

/** A request of the operation that succeeds as it is, and the statuses it succeeds with (empty: any but a 400 naming the member). */
function validRequest(op: SharedOperation): { path: string; options: CallOptions; success: number[] } {
  const { method, path } = op;
  const item = path.endsWith('{id}/');
  const collection = collectionOf(path);
  const id =
    collection === LINKS
      ? links.get('bank')!
      : collection === '/api/institutions/'
        ? '1'
        : recordIds.get(collection);
  const at = item ? path.replace('{id}', String(id)) : path;
  const link = linkOf(path);
  if (method === 'GET') {
    const unlinked = item || [LINKS, '/api/institutions/', '/api/employment-records/'].includes(path);
    const query: Record<string, string> = unlinked ? {} : { link };
    return { path: at, options: { query }, success: [200] };
  }
  if (method === 'POST' && path === LINKS)
    return { path, options: { body: BANK_REGISTRATION }, success: [201] };
  if (method === 'POST') {
    return { path, options: { body: { link, ...retrievalOf(path)?.body } }, success: [201] };
  }
  if (method === 'PATCH' && item)
    return { path: at, options: { body: { access_mode: 'single' } }, success: [200] };
  if (method === 'PUT') return { path: at, options: { body: { password: 'secret' } }, success: [200] };
  // PATCH on a collection resumes a paused request: an unknown session is refused, for its session only.
  return { path, options: { body: { session: 'f'.repeat(32), token: '1', link } }, success: [] };
}

function expectTaken(
  answer: { status: number; body: unknown },
  success: number[],
  member: string,
  what: string,
) {
  expect(answer.status, what).toBeLessThan(500);
  if (success.length > 0) {
    expect(success, `${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`).toContain(
      answer.status,
    );
    return;
  }
  const fields = answer.status === 400 ? (answer.body as { field?: string }[]).map((e) => e.field) : [];
  expect(fields, what).not.toContain(member);
  expect(fields, what).not.toContain(`body.${member}`);
}

describe('requests the provider takes', () => {
  it('every query parameter the provider declares, at the edge of its type, is taken (or refused as cited)', async () => {
    let tried = 0;
    let refusedAsCited = 0;
    for (const op of SHARED.filter((o) => o.method !== 'DELETE')) {
      for (const [name, facts] of Object.entries(op.query)) {
        const { path, options, success } = validRequest(op);
        const value = acceptedText(facts);
        const query = { ...(options.query ?? {}), [name]: value };
        const answer = await sim.call(op.method, path, { ...options, query });
        const what = `${op.key} ?${name}=${value}`;
        tried += 1;
        if (cited.has(`${op.key} query ${name}`)) {
          refusedAsCited += 1;
          expect(answer.status, what).toBe(400);
          expect(
            answer.body.map((e: { field?: string }) => e.field),
            what,
          ).toContain(name);
        } else expectTaken(answer, success, name, what);
      }
    }
    expect(tried).toBeGreaterThan(300);
    // The cited ones: dates in filters, a `link` that is a uuid, the invoices' `type` values.
    expect(refusedAsCited).toBeGreaterThan(0);
    expect(refusedAsCited).toBeLessThan(tried / 2);
  }, 120_000);

  it("every member of every retrieval's body, with each value the provider accepts, is taken (or cited)", async () => {
    let tried = 0;
    for (const op of SHARED.filter((o) => o.method === 'POST' && o.path !== LINKS && o.request)) {
      const request = op.request!;
      for (const name of Object.keys(request).filter((n) => n !== '' && n !== 'link' && !n.includes('['))) {
        if (cited.has(`${op.key} request ${name}`)) continue;
        for (const value of acceptedValues(name, request)) {
          const { path, options, success } = validRequest(op);
          const body = {
            ...(options.body as object),
            [name]: name === 'account' ? recordIds.get('/api/accounts/') : value,
          };
          const answer = await sim.call('POST', path, { ...options, body });
          // `save_data: false` keeps nothing and answers 200.
          const expected = name === 'save_data' && value === false ? [200] : success;
          expectTaken(answer, expected, name, `${op.key} ${name}=${JSON.stringify(value)}`);
          tried += 1;
        }
      }
    }
    expect(tried).toBeGreaterThan(20);
  }, 120_000);

  it("a retrieval's body with only the members the provider requires is taken", async () => {
    for (const op of SHARED.filter((o) => o.method === 'POST' && o.path !== LINKS && o.request)) {
      const request = op.request!;
      const required = Object.keys(request).filter(
        (n) => n !== '' && !n.includes('[') && request[n]?.required,
      );
      const citedRequired = required.some((n) => cited.has(`${op.key} request ${n}`));
      const body: Record<string, unknown> = { link: linkOf(op.path) };
      for (const name of required.filter((n) => n !== 'link')) {
        const dates = retrievalOf(op.path)?.body?.[name];
        body[name] = dates ?? acceptedValues(name, request)[0];
      }
      const answer = await sim.call('POST', op.path, { body });
      if (!citedRequired) expect(answer.status, `${op.key} ${JSON.stringify(body)}`).toBe(201);
    }
  }, 60_000);
});
