/**
 * LINK-ACCESS-MODE-UP: with the clock frozen, a single link of a generated kind is PATCHed to
 * `recurrent` at a generated time of day. No historical event comes that day; once the clock has passed
 * the whole next day, the link's historical events (WEBHOOK-HISTORICAL's set for its kind) have arrived,
 * and the event log dates them on the next day.
 */
import fc from 'fast-check';
import { defineRule, fail } from '../rule.js';
import { historicalKeys, isHistoricalKey, KIND_NAMES, LINK_KINDS, type LinkKind } from './event-catalogue.js';
import { patchLink } from './link-patch.js';
import {
  advanceClock,
  DAY_SECONDS,
  readClock,
  secondsToEndOfNextDay,
  utcDate,
  withFrozenClock,
} from './webhook-control.js';
import { eventKey } from './webhook-schemas.js';
import { hasKeys, keysOf, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  /** Seconds the clock moves between the registration and the PATCH (the time of day of the PATCH). */
  waitSeconds: number;
}

export const linkAccessModeUp = defineRule<Input>({
  id: 'LINK-ACCESS-MODE-UP',
  area: 'webhooks',
  operations: ['registerLink', 'updateLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  arbitrary: () =>
    fc.record({
      kind: fc.constantFrom(...LINK_KINDS),
      waitSeconds: fc.integer({ min: 0, max: DAY_SECONDS - 1 }),
    }),
  async check({ kind, waitSeconds }, run) {
    const { http } = run;
    await withFrozenClock(http, () =>
      withWebhooks(run, {}, async (hooks) => {
        const link = await hooks.register(kind, 'single');
        await advanceClock(http, waitSeconds);
        const { now } = await readClock(http);
        await patchLink(hooks, link, { access_mode: 'recurrent' });
        const what = `single ${KIND_NAMES[kind]} link ${link} PATCHed to recurrent at ${new Date(now).toISOString()}`;
        const sameDay = keysOf((await hooks.collect(link)).deliveries).filter(isHistoricalKey);
        if (sameDay.length > 0)
          fail(`${what}: ${sameDay.join(', ')} arrived the same day; the update runs the next day`);
        const nextDay = utcDate(now + DAY_SECONDS * 1000);
        await advanceClock(http, secondsToEndOfNextDay(now));
        const expected = historicalKeys(kind);
        const { deliveries, log } = await hooks.collect(link, hasKeys(expected));
        const got = keysOf(deliveries);
        const missing = expected.filter((key) => !got.includes(key));
        if (missing.length > 0) fail(`${what}: by the end of ${nextDay} no ${missing.join(', ')} arrived`);
        for (const event of log) {
          const key = eventKey(event.payload.webhook_type, event.payload.webhook_code);
          const day = event.created_at.slice(0, 10);
          if (isHistoricalKey(key) && day !== nextDay)
            fail(`${what}: ${key} was raised at ${event.created_at}, not on ${nextDay}`);
        }
      }),
    );
  },
});
