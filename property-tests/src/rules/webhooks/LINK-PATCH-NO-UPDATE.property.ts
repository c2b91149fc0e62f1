/**
 * LINK-PATCH-NO-UPDATE: with the clock frozen, a link of a generated kind and access mode (its historical
 * events delivered when recurrent) is PATCHed with only a generated `stale_in` or only a generated
 * `fetch_resources`; until the end of the next day no historical event of the link arrives or is logged
 * (the daily refresh's `new_*` events of a recurrent link may).
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { defineRule, fail } from '../rule.js';
import {
  historicalKeys,
  isHistoricalKey,
  KIND_NAMES,
  LINK_KINDS,
  type LinkKind,
  resourcesOf,
} from './event-catalogue.js';
import { keysSince, patchThenNextDay } from './link-patch.js';
import { withFrozenClock } from './webhook-control.js';
import { type AccessMode, hasKeys, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  accessMode: AccessMode;
  /** `{stale_in}` or `{fetch_resources}`, nothing else. */
  change: JsonObject;
}

const changes = (kind: LinkKind): fc.Arbitrary<JsonObject> =>
  fc.oneof(
    fc.integer({ min: 1, max: 365 }).map((days): JsonObject => ({ stale_in: `${days}d` })),
    fc
      .subarray(resourcesOf(kind), { minLength: 1 })
      .map((resources): JsonObject => ({ fetch_resources: resources })),
  );

export const linkPatchNoUpdate = defineRule<Input>({
  id: 'LINK-PATCH-NO-UPDATE',
  area: 'webhooks',
  operations: ['registerLink', 'updateLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  arbitrary: () =>
    fc.constantFrom(...LINK_KINDS).chain((kind) =>
      fc.record({
        kind: fc.constant(kind),
        accessMode: fc.constantFrom<AccessMode>('single', 'recurrent'),
        change: changes(kind),
      }),
    ),
  async check({ kind, accessMode, change }, run) {
    await withFrozenClock(run.http, () =>
      withWebhooks(run, {}, async (hooks) => {
        const link = await hooks.register(kind, accessMode);
        if (accessMode === 'recurrent') await hooks.collect(link, hasKeys(historicalKeys(kind)));
        const { before, after } = await patchThenNextDay(hooks, link, change);
        const { delivered, logged } = keysSince(before, after);
        const updates = [...new Set([...delivered, ...logged])].filter(isHistoricalKey);
        if (updates.length > 0) {
          fail(
            `${accessMode} ${KIND_NAMES[kind]} link ${link} PATCHed with ${JSON.stringify(change)} got ${updates.join(', ')} by the end of the next day; such a PATCH triggers no historical update`,
          );
        }
      }),
    );
  },
});
