/**
 * LINK-MFA-428: every request that pauses for the institution's MFA token (the config's MFA
 * registration; retrievals of owners, accounts, transactions and invoices; with the control API, a
 * credentials update) answers 428 with the one-item error array carrying `code: token_required`,
 * `session` and `link` (and `expiry`, `token_generation_data` when the institution gives them); PATCH on the same collection with that
 * session, the item's `link` and the config's token completes it (a registration or a credentials
 * update: 200 with that link; a retrieval: 201 with its records, 200 with `save_data: false`), or, when
 * the institution asks for another token (the control API's `institution_requires_another_token`),
 * answers a second 428 whose session completes it; a wrong token, an unknown session, or the right
 * session after its `expiry` (control API clock) answers 400 with the error array, and a wrong token
 * leaves the session open: the right token sent next on the same session completes; a `link` the target
 * does not have answers 400, or 404 where the resume documents it (a retrieval's, as LINK-REGISTER's
 * unknown link).
 */
import fc from 'fast-check';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { advanceClock, withFrozenClock } from './control-clock.js';
import { expectDocumented, LINKS, linkOf, linkUrl, readLink } from './link-requests.js';
import { armOnce, expectTokenRequired, type Pausable, type Paused, pausables, pause } from './mfa-pause.js';

interface Input {
  /** The request that pauses: `/api/links/`, a retrieval's collection, or `PUT /api/links/{id}/`. */
  collection: string;
  /** A retrieval's resume with `save_data: false` (200, records not kept). */
  discard: boolean;
  token: 'right' | { wrong: string };
  session: 'own' | { unknown: string };
  /** The PATCH names a link the target does not have (this uuid) instead of the 428's. */
  link: 'own' | { unknown: string };
  /** The institution asks for another token at the resume (control API): a second 428 first. */
  again: boolean;
  /** Seconds past (> 0) or before (< 0) the session's expiry at which the PATCH is sent; null: at once. */
  expiryOffset: number | null;
  /** A wrong token sent first on the same session (400, the session kept), then the PATCH of the case. */
  wrongFirst: string | null;
}

const UNKNOWN_LINK = { unknown: '00000000-0000-4000-8000-00000000f00d' };

const hex32 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });

/** The PATCH that resumes, sent after moving the clock (and a wrong token first) when the input says so. */
async function resume(run: RunContext, input: Input, paused: Paused, path: string): Promise<HttpResponse> {
  // Without an `expiry` in the item the clock is not moved: the session is as fresh as at once.
  if (input.expiryOffset !== null && paused.expiry !== null) {
    await advanceClock(run.http, Math.max(0, paused.expiry + input.expiryOffset));
  }
  const json = {
    session: input.session === 'own' ? paused.session : input.session.unknown,
    token: input.token === 'right' ? run.config.fixtures.mfa.token : input.token.wrong,
    link: input.link === 'own' ? paused.link : input.link.unknown,
    ...(input.discard && { save_data: false }),
  };
  // A wrong token on the case's own session first (an unknown session or link is refused either way).
  if (input.wrongFirst !== null && input.session === 'own' && input.link === 'own') {
    const what = `PATCH resuming ${path} with the wrong token "${input.wrongFirst}" first`;
    const wrong = await run.http.request({
      method: 'PATCH',
      url: path,
      json: { ...json, token: input.wrongFirst },
    });
    expectStatus(wrong, [400], what);
    expectErrorArray(run.document, wrong, what);
  }
  return run.http.request({ method: 'PATCH', url: path, json });
}

/**
 * The case the PATCH completes (or pauses again, when asked): right token, own session and link, in time
 * (a session whose item gives no `expiry` is always in time).
 */
const completes = (input: Input, expiry: number | null = 0) =>
  input.token === 'right' &&
  input.session === 'own' &&
  input.link === 'own' &&
  !(input.expiryOffset !== null && expiry !== null && input.expiryOffset > 0);

function describeCase(input: Input): string {
  const token = input.token === 'right' ? 'the right token' : `the wrong token "${input.token.wrong}"`;
  const session = input.session === 'own' ? 'its session' : `an unknown session ${input.session.unknown}`;
  const offset = input.expiryOffset;
  const when =
    offset === null ? 'at once' : `${Math.abs(offset)} s ${offset > 0 ? 'after' : 'before'} its expiry`;
  const kept = input.discard ? ' and save_data false' : '';
  const link = input.link === 'own' ? '' : ` naming the unknown link ${input.link.unknown}`;
  const again = input.again && completes(input) ? ' (the institution asks for another token)' : '';
  const tried = input.wrongFirst !== null && input.session === 'own' && input.link === 'own';
  const first = tried ? ` after the wrong token "${input.wrongFirst}" on it` : '';
  return `PATCH resuming ${input.collection} with ${token} and ${session}${link}${kept}, ${when}${again}${first}`;
}

/** A resumed retrieval: its records (201, or 200 when not kept), as a list. */
function checkRetrieved(
  run: RunContext,
  pausable: Pausable,
  input: Input,
  answer: HttpResponse,
  what: string,
) {
  expectStatus(answer, [input.discard ? 200 : 201], what);
  expectDocumented(run, answer, pausable.resumeId, what);
  if (!Array.isArray(answer.json)) fail(`${what}: wanted the list of records, got ${describeAnswer(answer)}`);
}

async function checkResumed(
  run: RunContext,
  pausable: Pausable,
  answer: HttpResponse,
  what: string,
  paused: Paused,
) {
  expectStatus(answer, [200], what);
  expectDocumented(run, answer, pausable.resumeId, what);
  const link = linkOf(answer, what);
  if (link.id !== paused.link) {
    fail(`${what}: resumed link ${link.id}, but the 428 named link ${paused.link}`);
  }
  if (link.institution !== pausable.institution) {
    fail(`${what}: the link's institution is ${String(link.institution)}, not ${pausable.institution}`);
  }
  if (link.status !== 'valid')
    fail(`${what}: the resumed link's status is ${String(link.status)}, not valid`);
  const detail = await readLink(run.http, link.id);
  expectStatus(detail, [200], `GET ${linkUrl(link.id)} after the resumed ${pausable.key}`);
}

/** The second 428 of an institution that asks for another token; its session, held to the rule's item. */
function pausedAgain(run: RunContext, pausable: Pausable, answer: HttpResponse, what: string, first: Paused) {
  const second = expectTokenRequired(answer, what);
  expectDocumented(run, answer, pausable.resumeId, what);
  if (second.session === first.session)
    fail(`${what}: the second 428 kept the used session ${first.session}`);
  if (second.link !== first.link)
    fail(`${what}: the second 428 names link ${second.link}, not ${first.link}`);
  return second;
}

interface Fixture {
  control: boolean;
  pausables: Pausable[];
}

const byKey = (fixture: Fixture, key: string) => fixture.pausables.find((p) => p.key === key)!;

export const linkMfa428 = defineRule<Input, Fixture>({
  id: 'LINK-MFA-428',
  area: 'links',
  operations: ['registerLink', 'resumeLinkRegistration', 'getLink'],
  tenantWide: 'clock',
  runs: 10,
  async prepare(suite, note) {
    const control = suite.capabilities.controlApi;
    if (!control) note('expired sessions not tried: moving past `expiry` needs the control API clock');
    return { control, pausables: await pausables(suite, note) };
  },
  arbitrary(suite, { control, pausables: found }) {
    const right = suite.config.fixtures.mfa.token;
    const wrong = fc.string({ minLength: 1, maxLength: 12 }).filter((token) => token !== right);
    const offset = fc.oneof(fc.integer({ min: -120, max: -1 }), fc.integer({ min: 1, max: 600 }));
    return fc.record({
      collection: fc.constantFrom(...found.map((pausable) => pausable.key)),
      discard: fc.boolean(),
      token: fc.oneof({ weight: 2, arbitrary: fc.constant<'right'>('right') }, fc.record({ wrong })),
      session: fc.oneof({ weight: 3, arbitrary: fc.constant<'own'>('own') }, fc.record({ unknown: hex32 })),
      link: fc.oneof({ weight: 5, arbitrary: fc.constant<'own'>('own') }, fc.constant(UNKNOWN_LINK)),
      again: control ? fc.boolean() : fc.constant(false),
      expiryOffset: control ? fc.option(offset, { nil: null }) : fc.constant(null),
      wrongFirst: fc.option(wrong, { nil: null, freq: 4 }),
    });
  },
  examples(suite, { control, pausables: found }) {
    const wrong = { wrong: `${suite.config.fixtures.mfa.token}0` };
    const own = { session: 'own', link: 'own', again: false, expiryOffset: null, wrongFirst: null } as const;
    const at = { ...own, collection: LINKS, discard: false };
    const cases: Input[] = [
      { ...at, token: 'right' },
      { ...at, token: wrong },
      { ...at, token: 'right', session: { unknown: 'f'.repeat(32) } },
      // A wrong token leaves the session open: the right one sent next on it completes.
      { ...at, token: 'right', wrongFirst: wrong.wrong },
    ];
    // Every request that pauses: resumed (kept, not kept), with a wrong token, naming an unknown link,
    // and, with the control API, when the institution asks for another token.
    for (const { key, retrieval } of found) {
      const right = { ...own, collection: key, token: 'right', discard: false } as const;
      if (retrieval) cases.push({ ...right, discard: true }, { ...right, token: wrong });
      if (key !== LINKS) cases.push(right);
      cases.push({ ...right, link: UNKNOWN_LINK });
      if (control) cases.push({ ...right, again: true });
    }
    // The boundary: one second before its expiry the session resumes, one second after it does not.
    if (!control) return cases;
    return [...cases, ...[-1, 1].map((expiryOffset): Input => ({ ...at, token: 'right', expiryOffset }))];
  },
  async check(input, run, fixture) {
    const pausable = byKey(fixture, input.collection);
    let paused: Paused = { session: '', expiry: null, link: '' };
    const attempt = async () => {
      paused = await pause(run, pausable);
      // Armed only for a PATCH that would complete: a switch left unused would ask a later request.
      if (input.again && completes(input, paused.expiry))
        await armOnce(run, 'institution_requires_another_token', pausable.institution);
      return resume(run, input, paused, pausable.path);
    };
    let answer = input.expiryOffset === null ? await attempt() : await withFrozenClock(run.http, attempt);
    const what = describeCase(input);
    if (completes(input, paused.expiry)) {
      if (input.again) {
        const second = pausedAgain(run, pausable, answer, what, paused);
        answer = await resume(run, { ...input, expiryOffset: null, wrongFirst: null }, second, pausable.path);
      }
      const done = input.again ? `${what}, then its second session` : what;
      if (pausable.retrieval) return checkRetrieved(run, pausable, input, answer, done);
      return checkResumed(run, pausable, answer, done, paused);
    }
    // LINK-REGISTER: a retrieval's unknown link is 400 or 404; 404 only where the resume documents it.
    const unknownLink = input.link !== 'own' && pausable.retrieval !== undefined;
    expectStatus(answer, unknownLink ? [400, 404] : [400], what);
    expectErrorArray(run.document, answer, what);
  },
});
