/**
 * LINK-MFA-428: every request that pauses for the institution's MFA token (the config's MFA
 * registration; retrievals of owners, accounts, transactions and invoices) answers 428 with the one-item
 * error array carrying `code: token_required`, `session` and `link` (and `expiry`, `token_generation_data`
 * when the institution gives them);
 * PATCH on the same collection with that session, the item's `link` and the config's token completes it
 * (a registration: 200 with that link, which the provider created with the 428; a retrieval: 201 with its
 * records, 200 with `save_data: false`); a wrong token, an unknown session, or the right session after
 * its `expiry` (control API clock) answers 400 with the error array.
 */
import fc from 'fast-check';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { advanceClock, withFrozenClock } from './control-clock.js';
import { expectDocumented, LINKS, linkOf, linkUrl, missingOperations, readLink } from './link-requests.js';
import { type Pausable, type Paused, pausables, pause } from './mfa-pause.js';

interface Input {
  /** The collection whose request pauses (`/api/links/` or a retrieval's). */
  collection: string;
  /** A retrieval's resume with `save_data: false` (200, records not kept). */
  discard: boolean;
  token: 'right' | { wrong: string };
  session: 'own' | { unknown: string };
  /** Seconds past (> 0) or before (< 0) the session's expiry at which the PATCH is sent; null: at once. */
  expiryOffset: number | null;
}

const hex32 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });

/** The PATCH that resumes, sent after moving the clock when the input says so. */
async function resume(run: RunContext, input: Input, paused: Paused): Promise<HttpResponse> {
  // Without an `expiry` in the item the clock is not moved: the session is as fresh as at once.
  if (input.expiryOffset !== null && paused.expiry !== null) {
    await advanceClock(run.http, Math.max(0, paused.expiry + input.expiryOffset));
  }
  const json = {
    session: input.session === 'own' ? paused.session : input.session.unknown,
    token: input.token === 'right' ? run.config.fixtures.mfa.token : input.token.wrong,
    link: paused.link,
    ...(input.discard && { save_data: false }),
  };
  return run.http.request({ method: 'PATCH', url: input.collection, json });
}

function describeCase(input: Input): string {
  const token = input.token === 'right' ? 'the right token' : `the wrong token "${input.token.wrong}"`;
  const session = input.session === 'own' ? 'its session' : `an unknown session ${input.session.unknown}`;
  const offset = input.expiryOffset;
  const when =
    offset === null ? 'at once' : `${Math.abs(offset)} s ${offset > 0 ? 'after' : 'before'} its expiry`;
  const kept = input.discard ? ' and save_data false' : '';
  return `PATCH ${input.collection} with ${token} and ${session}${kept}, ${when}`;
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

async function checkResumed(run: RunContext, answer: HttpResponse, what: string, paused: Paused) {
  expectStatus(answer, [200], what);
  expectDocumented(run, answer, 'resumeLinkRegistration', what);
  const link = linkOf(answer, what);
  if (link.id !== paused.link) {
    fail(`${what}: resumed link ${link.id}, but the 428 named link ${paused.link}`);
  }
  const institution = run.config.fixtures.mfa.registration.institution;
  if (link.institution !== institution) {
    fail(`${what}: the link's institution is ${String(link.institution)}, not ${institution}`);
  }
  const detail = await readLink(run.http, link.id);
  expectStatus(detail, [200], `GET ${linkUrl(link.id)} after the resumed registration`);
}

interface Fixture {
  control: boolean;
  pausables: Pausable[];
}

const byPath = (fixture: Fixture, path: string) => fixture.pausables.find((p) => p.path === path)!;

export const linkMfa428 = defineRule<Input, Fixture>({
  id: 'LINK-MFA-428',
  area: 'links',
  runs: 10,
  async prepare(suite, note) {
    const missing = missingOperations(suite, ['registerLink', 'resumeLinkRegistration', 'getLink']);
    if (missing) return missing;
    const control = suite.capabilities.controlApi;
    if (!control) note('expired sessions not tried: moving past `expiry` needs the control API clock');
    return { control, pausables: await pausables(suite, note) };
  },
  arbitrary(suite, { control, pausables: found }) {
    const right = suite.config.fixtures.mfa.token;
    const wrong = fc.string({ minLength: 1, maxLength: 12 }).filter((token) => token !== right);
    const offset = fc.oneof(fc.integer({ min: -120, max: -1 }), fc.integer({ min: 1, max: 600 }));
    return fc.record({
      collection: fc.constantFrom(...found.map((pausable) => pausable.path)),
      discard: fc.boolean(),
      token: fc.oneof({ weight: 2, arbitrary: fc.constant<'right'>('right') }, fc.record({ wrong })),
      session: fc.oneof({ weight: 3, arbitrary: fc.constant<'own'>('own') }, fc.record({ unknown: hex32 })),
      expiryOffset: control ? fc.option(offset, { nil: null }) : fc.constant(null),
    });
  },
  examples(suite, { control, pausables: found }) {
    const wrong = { wrong: `${suite.config.fixtures.mfa.token}0` };
    const at = { collection: LINKS, discard: false };
    const cases: Input[] = [
      { ...at, token: 'right', session: 'own', expiryOffset: null },
      { ...at, token: wrong, session: 'own', expiryOffset: null },
      { ...at, token: 'right', session: { unknown: 'f'.repeat(32) }, expiryOffset: null },
    ];
    // Every retrieval that pauses: resumed kept, resumed not kept, and with a wrong token.
    const retrievals = found.filter((pausable) => pausable.retrieval).map((pausable) => pausable.path);
    const right = { token: 'right', session: 'own', expiryOffset: null } as const;
    for (const collection of retrievals) {
      cases.push(
        { ...right, collection, discard: false },
        { ...right, collection, discard: true },
        { ...right, collection, discard: false, token: wrong },
      );
    }
    // The boundary: one second before its expiry the session resumes, one second after it does not.
    if (!control) return cases;
    return [
      ...cases,
      ...[-1, 1].map((expiryOffset): Input => ({ ...at, token: 'right', session: 'own', expiryOffset })),
    ];
  },
  async check(input, run, fixture) {
    const pausable = byPath(fixture, input.collection);
    let paused: Paused = { session: '', expiry: null, link: '' };
    const attempt = async () => {
      paused = await pause(run, pausable);
      return resume(run, input, paused);
    };
    const answer = input.expiryOffset === null ? await attempt() : await withFrozenClock(run.http, attempt);
    const what = describeCase(input);
    const expired = input.expiryOffset !== null && paused.expiry !== null && input.expiryOffset > 0;
    if (input.token === 'right' && input.session === 'own' && !expired) {
      if (pausable.retrieval) return checkRetrieved(run, pausable, input, answer, what);
      return checkResumed(run, answer, what, paused);
    }
    expectStatus(answer, [400], what);
    expectErrorArray(run.document, answer, what);
  },
});
