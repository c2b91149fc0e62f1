/**
 * LINK-REFRESH-COOLDOWN: a new link is refreshed (202), then refreshed again after each of the generated
 * waits. A model keeps the time since the last accepted refresh: within the cooldown (`x-cooldown` of
 * refreshLink, 600 s) the answer is 409 with the error array and a message naming the minutes left
 * (rounded either way); from the cooldown on it is 202 and the cooldown starts again. The waits move the
 * control API clock, frozen meanwhile; without a control API every repeat comes at once and only the 409
 * half is checked.
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, errorItems, expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { advanceClock, withFrozenClock } from './control-clock.js';
import { linkUrl, registerLink } from './link-requests.js';

interface Input {
  /** Seconds the clock moves before each repeated refresh. */
  waits: number[];
}

interface Fixture {
  cooldown: number;
  control: boolean;
}

/** The catalogue's cooldown (LINK-REFRESH-COOLDOWN), for a document without `x-cooldown`. */
const RULES_MD_COOLDOWN_SECONDS = 600;

function cooldownOf(run: Pick<RunContext, 'document'>): number {
  const extension = run.document.operation('refreshLink')?.raw['x-cooldown'];
  return isObject(extension) && typeof extension.seconds === 'number'
    ? extension.seconds
    : RULES_MD_COOLDOWN_SECONDS;
}

/** The 409: error array, and a number in its message that is the minutes left, rounded down or up. */
function expectCooldown(
  run: RunContext,
  answer: HttpResponse,
  left: { min: number; max: number },
  what: string,
) {
  expectStatus(answer, [409], what);
  expectErrorArray(run.document, answer, what);
  const accepted = new Set<number>();
  for (let minutes = Math.floor(left.min / 60); minutes <= Math.ceil(left.max / 60); minutes += 1)
    accepted.add(minutes);
  const named = errorItems(answer)
    .map((item) => String(item.message ?? ''))
    .flatMap((message) => message.match(/\d+/g) ?? [])
    .map(Number);
  if (!named.some((minutes) => accepted.has(minutes))) {
    fail(
      `${what}: the message should name the minutes left (${[...accepted].join(' or ')}), got ${describeAnswer(answer)}`,
    );
  }
}

/** The refreshes of one run against the model; `slack` is real time that may have passed unseen. */
async function refreshAgainstModel(run: RunContext, input: Input, fixture: Fixture): Promise<void> {
  const link = await registerLink(run, run.config.fixtures.link);
  const url = linkUrl(link.id, 'refresh/');
  const refresh = () => run.http.request({ method: 'POST', url });
  expectStatus(await refresh(), [202], `the first POST ${url}`);
  const started = performance.now();
  let since = 0;
  for (const [index, wait] of input.waits.entries()) {
    await advanceClock(run.http, wait);
    since += wait;
    const answer = await refresh();
    const slack = fixture.control ? 0 : (performance.now() - started) / 1000 + 1;
    const left = fixture.cooldown - since;
    const what = `POST ${url} ${since} s after the last accepted refresh (repeat ${index + 1})`;
    if (left > 0) {
      expectCooldown(run, answer, { min: left - slack, max: left }, what);
    } else {
      expectStatus(answer, [202], what);
      since = 0;
    }
  }
}

export const linkRefreshCooldown = defineRule<Input, Fixture>({
  id: 'LINK-REFRESH-COOLDOWN',
  area: 'links',
  operations: ['registerLink', 'refreshLink'],
  tenantWide: 'clock',
  runs: 10,
  async prepare(suite, note) {
    const control = suite.capabilities.controlApi;
    if (!control)
      note('no control API clock: repeats come at once; "accepted again after 10 minutes" is not tried');
    return { cooldown: cooldownOf(suite), control };
  },
  arbitrary(_, { cooldown, control }) {
    if (!control) return fc.record({ waits: fc.array(fc.constant(0), { minLength: 1, maxLength: 3 }) });
    const wait = fc.oneof(
      fc.integer({ min: 0, max: cooldown + 120 }),
      fc.constantFrom(cooldown - 1, cooldown, 60, 1),
    );
    return fc.record({ waits: fc.array(wait, { minLength: 1, maxLength: 4 }) });
  },
  examples: (_, { cooldown, control }) =>
    control
      ? // 9:59 later still 409 (1 minute left), at 10:00 202; a repeat right after that 202 is 409 again.
        [{ waits: [cooldown - 1, 1, 0] }, { waits: [cooldown] }, { waits: [0, 60] }]
      : [{ waits: [0] }],
  check: (input, run, fixture) =>
    fixture.control
      ? withFrozenClock(run.http, () => refreshAgainstModel(run, input, fixture))
      : refreshAgainstModel(run, input, fixture),
});
