/**
 * WEBHOOK-FOLLOW-UP: a recurrent link of a generated kind (bank, fiscal MX) is registered, optionally
 * refreshed (through the control API or the clock); right after each batch of events arrives, every
 * event of the catalogue is resolved with its follow-up read (follow-up-reads.ts): totals equal the
 * lists' counts, first and last dates or years bound the records, updated ids resolve with `id__in`,
 * deleted ones no longer do, cancelled invoices resolve by id, and new-record counts are covered by the
 * records created since the previous notification day.
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import { defineRule, fail } from '../rule.js';
import { historicalKeys, LINK_KINDS, type LinkKind } from './event-catalogue.js';
import { dailyRefresh, type RefreshVia, refreshVia } from './event-triggers.js';
import { FOLLOW_UPS, type FollowUpContext } from './follow-up-reads.js';
import { readClock, utcDate } from './webhook-control.js';
import type { Delivery } from './webhook-receiver.js';
import { eventKey } from './webhook-schemas.js';
import { hasKeys, payloadsOf, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  refresh: RefreshVia | null;
}

interface Fixture {
  /** The events resolved, by key (for the report). */
  resolved: Map<string, number>;
}

const deletedCount = (deliveries: readonly Delivery[]) =>
  payloadsOf(deliveries)
    .filter((p) => eventKey(p.webhook_type, p.webhook_code) === 'TRANSACTIONS transactions_deleted')
    .reduce(
      (sum, p) =>
        sum +
        (isObject(p.data) && Array.isArray(p.data.transactions_deleted)
          ? p.data.transactions_deleted.length
          : 0),
      0,
    );

/** Resolves every event of `deliveries` with its follow-up read; fails on the first that does not. */
async function resolveAll(deliveries: readonly Delivery[], context: FollowUpContext, fixture: Fixture) {
  for (const payload of payloadsOf(deliveries)) {
    const key = eventKey(payload.webhook_type, payload.webhook_code);
    const followUp = FOLLOW_UPS[key];
    if (!followUp || !isObject(payload.data)) continue;
    const problems = await followUp(payload.data, context);
    if (problems.length > 0) {
      fail(
        `${key} of link ${context.link} ${JSON.stringify(payload.data).slice(0, 200)}: ${problems.join('; ')}`,
      );
    }
    fixture.resolved.set(key, (fixture.resolved.get(key) ?? 0) + 1);
  }
}

export const webhookFollowUp = defineRule<Input, Fixture>({
  id: 'WEBHOOK-FOLLOW-UP',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  prepare: async () => ({ resolved: new Map<string, number>() }),
  arbitrary: () =>
    fc.record({ kind: fc.constantFrom(...LINK_KINDS), refresh: fc.option(refreshVia(), { nil: null }) }),
  examples: () => [
    { kind: 'link', refresh: 'control' },
    { kind: 'fiscalMx', refresh: 'control' },
  ],
  async check({ kind, refresh }, run, fixture) {
    await withWebhooks(run, {}, async (hooks) => {
      const created = utcDate((await readClock(run.http)).now);
      const link = await hooks.register(kind, 'recurrent');
      const { deliveries } = await hooks.collect(link, hasKeys(historicalKeys(kind)));
      const context = { http: run.http, link, since: created, today: created, deletedTransactions: 0 };
      await resolveAll(deliveries, context, fixture);
      if (refresh === null) return;
      const before = hooks.deliveriesOf(link).length;
      await dailyRefresh(hooks, refresh);
      const fresh = (await hooks.collect(link, (d) => d.length > before)).deliveries.slice(before);
      const today = utcDate((await readClock(run.http)).now);
      await resolveAll(fresh, { ...context, today, deletedTransactions: deletedCount(fresh) }, fixture);
    });
  },
  summarize: ({ resolved }) => [
    `resolved: ${[...resolved].map(([key, count]) => `${key} x${count}`).join(', ') || 'nothing'}`,
  ],
});
