/**
 * LINK-ACCESS-MODE-DOWN: with the clock frozen, a recurrent link of a generated kind, its historical
 * events delivered, is PATCHed to `single` at a generated time of day; until the end of the next day the
 * link gets no event but those single links get too (`transactions_updated`, `transactions_deleted`,
 * from the daily refresh: WEBHOOK-RECURRENT-ONLY), neither at the receiver nor in the event log.
 */
import fc from 'fast-check';
import { defineRule, fail } from '../rule.js';
import {
  historicalKeys,
  KIND_NAMES,
  LINK_KINDS,
  type LinkKind,
  SINGLE_LINK_EVENTS,
} from './event-catalogue.js';
import { keysSince, patchThenNextDay } from './link-patch.js';
import { advanceClock, DAY_SECONDS, withFrozenClock } from './webhook-control.js';
import { hasKeys, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  waitSeconds: number;
}

export const linkAccessModeDown = defineRule<Input>({
  id: 'LINK-ACCESS-MODE-DOWN',
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
    await withFrozenClock(run.http, () =>
      withWebhooks(run, {}, async (hooks) => {
        const link = await hooks.register(kind, 'recurrent');
        await hooks.collect(link, hasKeys(historicalKeys(kind)));
        await advanceClock(run.http, waitSeconds);
        const { before, after, patchedAt } = await patchThenNextDay(hooks, link, { access_mode: 'single' });
        const { delivered, logged } = keysSince(before, after);
        const caused = [...new Set([...delivered, ...logged])].filter(
          (key) => !SINGLE_LINK_EVENTS.includes(key),
        );
        if (caused.length > 0) {
          fail(
            `recurrent ${KIND_NAMES[kind]} link ${link} PATCHed to single at ${new Date(patchedAt).toISOString()} got ${caused.join(', ')} by the end of the next day; the PATCH sends no events`,
          );
        }
      }),
    );
  },
});
