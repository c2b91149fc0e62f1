/**
 * LINK-MFA-428 (registration): the config's MFA registration answers 428 with the one-item error array
 * carrying `code: token_required` and the `session` and `link` to resume with (the items the document's
 * 428 requires; `expiry` and `token_generation_data` come when the institution gives them); PATCH
 * /api/links/ with that session, the item's `link` and the config's token answers 200 with that link
 * (the provider creates the link with the 428 and names it in the item); a wrong token, an unknown
 * session, or the right session after its `expiry` (control API clock, when the item has one) answers
 * 400 with the error array. The retrievals' 428 (owners, accounts, transactions, invoices) belong to the
 * data area.
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { advanceClock, withFrozenClock } from './control-clock.js';
import { expectDocumented, LINKS, linkOf, linkUrl, missingOperations, readLink } from './link-requests.js';

interface Input {
  token: 'right' | { wrong: string };
  session: 'own' | { unknown: string };
  /** Seconds past (> 0) or before (< 0) the session's expiry at which the PATCH is sent; null: at once. */
  expiryOffset: number | null;
}

interface Paused {
  session: string;
  /** Seconds the session lasts, when the item says (null: it does not). */
  expiry: number | null;
  /** The link the 428 names (the provider's: the link the registration created). */
  link: string;
}

const hex32 = fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 });

/** The 428 of the MFA registration, valid against the document, and its session. */
async function pauseRegistration(run: RunContext): Promise<Paused> {
  const json = run.config.fixtures.mfa.registration;
  const answer = await run.http.request({ method: 'POST', url: LINKS, json });
  const what = `POST ${LINKS} with the MFA registration of the config`;
  expectStatus(answer, [428], what);
  expectDocumented(run, answer, 'registerLink', what);
  const item = Array.isArray(answer.json) ? answer.json[0] : undefined;
  if (
    !isObject(item) ||
    item.code !== 'token_required' ||
    typeof item.session !== 'string' ||
    typeof item.link !== 'string'
  ) {
    fail(
      `${what}: wanted one item with code token_required, a session and a link, got ${describeAnswer(answer)}`,
    );
  }
  return {
    session: item.session,
    expiry: typeof item.expiry === 'number' ? item.expiry : null,
    link: item.link,
  };
}

/** The PATCH that resumes, sent after moving the clock when the input says so. */
async function resume(run: RunContext, input: Input, paused: Paused): Promise<HttpResponse> {
  if (input.expiryOffset !== null && paused.expiry !== null) {
    await advanceClock(run.http, Math.max(0, paused.expiry + input.expiryOffset));
  }
  const json = {
    session: input.session === 'own' ? paused.session : input.session.unknown,
    token: input.token === 'right' ? run.config.fixtures.mfa.token : input.token.wrong,
    link: paused.link,
  };
  return run.http.request({ method: 'PATCH', url: LINKS, json });
}

function describeCase(input: Input): string {
  const token = input.token === 'right' ? 'the right token' : `the wrong token "${input.token.wrong}"`;
  const session = input.session === 'own' ? 'its session' : `an unknown session ${input.session.unknown}`;
  const offset = input.expiryOffset;
  const when =
    offset === null ? 'at once' : `${Math.abs(offset)} s ${offset > 0 ? 'after' : 'before'} its expiry`;
  return `PATCH ${LINKS} with ${token} and ${session}, ${when}`;
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

export const linkMfa428 = defineRule<Input, { control: boolean }>({
  id: 'LINK-MFA-428',
  area: 'links',
  runs: 10,
  async prepare(suite, note) {
    const missing = missingOperations(suite, ['registerLink', 'resumeLinkRegistration', 'getLink']);
    if (missing) return missing;
    note('registration only: the 428 of retrievals is checked by the data area');
    const control = suite.capabilities.controlApi;
    if (!control) note('expired sessions not tried: moving past `expiry` needs the control API clock');
    return { control };
  },
  arbitrary(suite, { control }) {
    const right = suite.config.fixtures.mfa.token;
    const wrong = fc.string({ minLength: 1, maxLength: 12 }).filter((token) => token !== right);
    const offset = fc.oneof(fc.integer({ min: -120, max: -1 }), fc.integer({ min: 1, max: 600 }));
    return fc.record({
      token: fc.oneof({ weight: 2, arbitrary: fc.constant<'right'>('right') }, fc.record({ wrong })),
      session: fc.oneof({ weight: 3, arbitrary: fc.constant<'own'>('own') }, fc.record({ unknown: hex32 })),
      expiryOffset: control ? fc.option(offset, { nil: null }) : fc.constant(null),
    });
  },
  examples(suite, { control }) {
    const wrong = { wrong: `${suite.config.fixtures.mfa.token}0` };
    const cases: Input[] = [
      { token: 'right', session: 'own', expiryOffset: null },
      { token: wrong, session: 'own', expiryOffset: null },
      { token: 'right', session: { unknown: 'f'.repeat(32) }, expiryOffset: null },
    ];
    // The boundary: one second before its expiry the session resumes, one second after it does not.
    if (!control) return cases;
    return [
      ...cases,
      ...[-1, 1].map((expiryOffset): Input => ({ token: 'right', session: 'own', expiryOffset })),
    ];
  },
  async check(input, run) {
    let paused: Paused = { session: '', expiry: null, link: '' };
    const attempt = async () => {
      paused = await pauseRegistration(run);
      return resume(run, input, paused);
    };
    const answer = input.expiryOffset === null ? await attempt() : await withFrozenClock(run.http, attempt);
    // Without an `expiry` in the item the clock was not moved: the session is as fresh as at once.
    const moved = input.expiryOffset !== null && paused.expiry !== null;
    const what = describeCase(moved ? input : { ...input, expiryOffset: null });
    const expired = moved && (input.expiryOffset ?? 0) > 0;
    if (input.token === 'right' && input.session === 'own' && !expired)
      return checkResumed(run, answer, what, paused);
    expectStatus(answer, [400], what);
    expectErrorArray(run.document, answer, what);
  },
});
