import { isObject } from '../../../../openapi/document/json.js';
import type { FixtureKind } from '../../target/target-config.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { advanceClock, sleep } from './control-clock.js';
import {
  expectNoLinkedData,
  type LinkedList,
  type LinkWithData,
  linkedLists,
  linkWithDataArbitrary,
  registerWithData,
  retrievalsByKind,
  richestLink,
} from './link-data.js';
import { expectDocumented, linkUrl, readLink, registrationKinds } from './link-requests.js';

/**
 * Clock moves between looks at the link: soon after the 202, then ever longer, 300 s in all (choice: the
 * spec gives no duration for the deletion).
 */
const CLOCK_STEPS = [1, 4, 10, 45, 60, 180];
const REAL_TIME_DEADLINE_MS = 15_000;
const REAL_TIME_POLL_MS = 250;
const ASYNC = { 'x-service-request-mode': 'async' };

type Input = LinkWithData;

interface Fixture {
  lists: LinkedList[];
  retrievals: Map<FixtureKind, string[]>;
}

/** Looks at the link until it is gone, moving the clock (or waiting) between looks. */
async function awaitGone(run: RunContext, id: string): Promise<void> {
  const gone = async () => (await readLink(run.http, id)).status === 404;
  if (run.capabilities.controlApi) {
    let waited = 0;
    for (const step of CLOCK_STEPS) {
      if (await gone()) return;
      await advanceClock(run.http, step);
      waited += step;
    }
    if (await gone()) return;
    fail(`the link is still there ${waited} s (control API clock) after the 202 of the async DELETE`);
  }
  const started = performance.now();
  while (performance.now() - started < REAL_TIME_DEADLINE_MS) {
    if (await gone()) return;
    await sleep(REAL_TIME_POLL_MS);
  }
  fail(`the link is still there ${REAL_TIME_DEADLINE_MS / 1000} s after the 202 of the async DELETE`);
}

export const linkDeleteAsync = defineRule<Input, Fixture>({
  id: 'LINK-DELETE-ASYNC',
  area: 'links',
  operations: ['registerLink', 'getLink', 'deleteLink'],
  tenantWide: 'clock',
  runs: 5,
  async prepare(suite, note) {
    note('`link_deleted` is checked by the webhooks area');
    if (!suite.capabilities.controlApi) {
      note(`no control API clock: waiting up to ${REAL_TIME_DEADLINE_MS / 1000} s for the link to go`);
    }
    return { lists: linkedLists(suite), retrievals: retrievalsByKind(suite, registrationKinds(suite)) };
  },
  arbitrary: (_, fixture) => linkWithDataArbitrary(fixture.retrievals),
  examples: (_, fixture) => richestLink(fixture.retrievals),
  async check(input, run, fixture) {
    const link = await registerWithData(run, input);
    const what = `DELETE ${linkUrl(link.id)} with X-Service-Request-Mode: async`;
    const accepted = await run.http.request({ method: 'DELETE', url: linkUrl(link.id), headers: ASYNC });
    expectStatus(accepted, [202], what);
    expectDocumented(run, accepted, 'deleteLink', what);
    const body = accepted.json;
    if (!isObject(body) || typeof body.request_id !== 'string' || body.request_id === '') {
      fail(`${what}: wanted a request_id in the body, got ${describeAnswer(accepted)}`);
    }
    await awaitGone(run, link.id);
    await expectNoLinkedData(run, fixture.lists, link.id, `once the async deletion of ${link.id} is done`);
  },
});
