/**
 * WEBHOOK-RECURRENT-ONLY: a single link of a generated kind (bank, fiscal MX) is registered (a bank link
 * optionally retrieves a month of transactions, so the institution has records of it to change), then
 * the tenant's daily refresh runs once or twice (control API or clock). The link gets no event but
 * `transactions_updated` and `transactions_deleted`, neither at the receiver nor in the event log.
 */
import fc from 'fast-check';
import { describeAnswer } from '../expect-response.js';
import { defineRule, fail, type RunContext } from '../rule.js';
import { KIND_NAMES, LINK_KINDS, type LinkKind, SINGLE_LINK_EVENTS } from './event-catalogue.js';
import { dailyRefresh, type RefreshVia, refreshVia } from './event-triggers.js';
import { DAY_SECONDS, readClock, utcDate } from './webhook-control.js';
import { eventKey } from './webhook-schemas.js';
import { keysOf, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  /** A bank link retrieves a month of transactions first. */
  retrieve: boolean;
  refreshes: RefreshVia[];
}

interface Fixture {
  /** Events single links got, by key (the part of the rule that allows them). */
  seen: Map<string, number>;
}

/** POST /api/transactions/ for the last 30 days of the clock (DATA-RETRIEVE's operation). */
async function retrieveTransactions(run: RunContext, link: string): Promise<void> {
  const now = (await readClock(run.http)).now;
  const json = { link, date_from: utcDate(now - 30 * DAY_SECONDS * 1000), date_to: utcDate(now) };
  const answer = await run.http.request({ method: 'POST', url: '/api/transactions/', json });
  if (answer.status < 200 || answer.status > 299) {
    fail(`set-up: retrieving the transactions of single link ${link} answered ${describeAnswer(answer)}`);
  }
}

export const webhookRecurrentOnly = defineRule<Input, Fixture>({
  id: 'WEBHOOK-RECURRENT-ONLY',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  prepare: async () => ({ seen: new Map<string, number>() }),
  arbitrary: () =>
    fc.record({
      kind: fc.constantFrom(...LINK_KINDS),
      retrieve: fc.boolean(),
      refreshes: fc.array(refreshVia(), { minLength: 1, maxLength: 2 }),
    }),
  examples: () => [{ kind: 'link', retrieve: true, refreshes: ['control'] }],
  async check({ kind, retrieve, refreshes }, run, { seen }) {
    await withWebhooks(run, {}, async (hooks) => {
      const link = await hooks.register(kind, 'single');
      if (retrieve && kind === 'link') await retrieveTransactions(run, link);
      for (const via of refreshes) await dailyRefresh(hooks, via);
      const { deliveries, log } = await hooks.collect(link);
      const keys = [
        ...keysOf(deliveries),
        ...log.map((e) => eventKey(e.payload.webhook_type, e.payload.webhook_code)),
      ];
      const others = [...new Set(keys.filter((key) => !SINGLE_LINK_EVENTS.includes(key)))];
      if (others.length > 0) {
        const retrieved = retrieve && kind === 'link' ? ', a retrieval of its transactions' : '';
        fail(
          `single ${KIND_NAMES[kind]} link ${link} got ${others.join(', ')} after its creation${retrieved} and ${refreshes.length} daily refreshes; single links get only ${SINGLE_LINK_EVENTS.join(' and ')}`,
        );
      }
      for (const key of keysOf(deliveries)) seen.set(key, (seen.get(key) ?? 0) + 1);
    });
  },
  summarize: ({ seen }) => [
    `single links got: ${[...seen].map(([key, count]) => `${key} x${count}`).join(', ') || 'no events'}`,
  ],
});
