/**
 * WEBHOOK-DAILY (and INVOICE-CANCELLED's event half): a recurrent link of a generated kind (bank, fiscal
 * MX) is refreshed one to three times, through the control API or by moving the clock to the generated
 * `daily_refresh_time`. Around each refresh the link's lists are read: the refresh's `new_*_available`
 * events count the records that appeared (the whole history on the first refresh, for transactions),
 * and `transactions_updated`, `transactions_deleted` and `invoices_cancelled` list exactly the
 * transactions that changed or went and the invoices that became cancelled, each of which reads
 * `Cancelado` (the SAT's word, INVOICE-CANCELLED) by id.
 */
import fc from 'fast-check';
import { INVOICE_STATUS } from '../invoice-status.js';
import { defineRule, fail } from '../rule.js';
import { changeProblems, listedIds, newRecordProblems, snapshot, statusOf } from './daily-snapshot.js';
import { historicalKeys, KIND_NAMES, LINK_KINDS, type LinkKind } from './event-catalogue.js';
import { dailyRefresh, type RefreshVia, refreshVia } from './event-triggers.js';
import type { Delivery } from './webhook-receiver.js';
import { hasKeys, payloadsOf, type WebhookSession, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  /** The configured `daily_refresh_time` (`HH:MM`, UTC), which the clock refreshes reach. */
  time: string;
  refreshes: RefreshVia[];
}

interface Fixture {
  cancelled: number;
  refreshes: number;
  /** Refreshes in which new records appeared (the rule is not checked vacuously). */
  withNewRecords: number;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** INVOICE-CANCELLED: each id `invoices_cancelled` lists reads `Cancelado` at GET /api/invoices/{id}/. */
async function expectCancelled(hooks: WebhookSession, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const url = `/api/invoices/${encodeURIComponent(id)}/`;
    const answer = await hooks.run.http.request({ method: 'GET', url });
    if (answer.status !== 200 || statusOf(answer.json) !== INVOICE_STATUS.cancelled) {
      fail(
        `invoices_cancelled listed ${id}, but GET ${url} answered ${answer.status} with status ${JSON.stringify(statusOf(answer.json))}`,
      );
    }
  }
}

/** One refresh of the link and what its events say about its records. */
async function checkRefresh(
  hooks: WebhookSession,
  input: { kind: LinkKind; link: string; via: RefreshVia; index: number },
) {
  const { kind, link, via, index } = input;
  const { http } = hooks.run;
  const before = await snapshot(http, kind, link);
  const count = hooks.deliveriesOf(link).length;
  await dailyRefresh(hooks, via);
  // The refresh has begun to announce once one delivery arrived; its records are read then.
  await hooks.collect(link, (d) => d.length > count);
  const after = await snapshot(http, kind, link);
  const problemsIn = (deliveries: readonly Delivery[]) => {
    const sent = payloadsOf(deliveries.slice(count));
    return [
      ...newRecordProblems(kind, [before, after], sent, index === 0),
      ...changeProblems([before, after], sent),
    ];
  };
  // The refresh's other events may still be on their way (deliveries are asynchronous, one per event):
  // the wait ends once they tell what the lists show, or at the session's bound.
  const { deliveries } = await hooks.collect(link, (d) => problemsIn(d).length === 0);
  const payloads = payloadsOf(deliveries.slice(count));
  const grew = [...after].some(([path, records]) =>
    [...records.keys()].some((id) => !before.get(path)?.has(id)),
  );
  const problems = problemsIn(deliveries);
  const how =
    via === 'control' ? 'POST /_ofkit/daily-refresh/' : `the clock at ${hooks.settings.dailyRefreshTime}`;
  const what = `daily refresh ${index + 1} (${how}) of ${KIND_NAMES[kind]} link ${link}`;
  if (problems.length > 0) fail(`${what}: ${problems.join('; ')}`);
  const cancelled = listedIds(payloads, 'INVOICES invoices_cancelled', 'cancelled_invoices');
  await expectCancelled(hooks, cancelled);
  return { cancelled: cancelled.length, grew };
}

export const webhookDaily = defineRule<Input, Fixture>({
  id: 'WEBHOOK-DAILY',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 2,
  prepare: async () => ({ cancelled: 0, refreshes: 0, withNewRecords: 0 }),
  arbitrary: () =>
    fc.record({
      kind: fc.constantFrom(...LINK_KINDS),
      time: fc.tuple(fc.nat(23), fc.nat(59)).map(([hours, minutes]) => `${pad(hours)}:${pad(minutes)}`),
      refreshes: fc.array(refreshVia(), { minLength: 1, maxLength: 3 }),
    }),
  examples: () => [
    { kind: 'link', time: '06:00', refreshes: ['control', 'clock'] },
    { kind: 'fiscalMx', time: '23:59', refreshes: ['clock', 'control'] },
  ],
  async check({ kind, time, refreshes }, run, fixture) {
    await withWebhooks(run, { dailyRefreshTime: time }, async (hooks) => {
      const link = await hooks.register(kind, 'recurrent');
      await hooks.collect(link, hasKeys(historicalKeys(kind)));
      for (const [index, via] of refreshes.entries()) {
        const { cancelled, grew } = await checkRefresh(hooks, { kind, link, via, index });
        fixture.cancelled += cancelled;
        fixture.refreshes += 1;
        if (grew) fixture.withNewRecords += 1;
      }
    });
  },
  summarize: ({ cancelled, refreshes, withNewRecords }) => [
    `${withNewRecords} of ${refreshes} refreshes found new records`,
    `${cancelled} cancelled invoices listed by invoices_cancelled read ${INVOICE_STATUS.cancelled}`,
  ],
});
