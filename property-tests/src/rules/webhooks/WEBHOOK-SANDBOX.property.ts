/**
 * WEBHOOK-SANDBOX: with the webhook's environment `sandbox`, a link of a generated kind (bank, fiscal
 * MX) and access mode is registered: a historical event arrives (single links too) and no `new_*` event
 * before any refresh. A recurrent link then optionally gets a failing daily refresh (invalid credentials
 * or token required), and optionally an asynchronous deletion (`link_deleted`): no LINK event reaches the
 * receiver or the event log. The report notes how many of those refreshes and deletions the link's
 * status shows took effect (the negative check is not vacuous).
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { defineRule, fail } from '../rule.js';
import { statusOf } from './daily-snapshot.js';
import { isHistoricalKey as isHistorical, KIND_NAMES, LINK_KINDS, type LinkKind } from './event-catalogue.js';
import { deleteAsync, type Scenario } from './event-triggers.js';
import { addLinkScenario, runDailyRefresh } from './webhook-control.js';
import { type AccessMode, keysOf, payloadsOf, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  accessMode: AccessMode;
  /** Applied to recurrent links only (the daily refresh refreshes those). */
  scenario: Scenario | null;
  /** Deletes the link asynchronously at the end (`link_deleted` is a LINK event). */
  deleted: boolean;
}

interface Fixture {
  tried: number;
  confirmed: number;
  deleted: number;
}

const codes = (payloads: JsonObject[]) => payloads.map((p) => String(p.webhook_code)).join(', ');

export const webhookSandbox = defineRule<Input, Fixture>({
  id: 'WEBHOOK-SANDBOX',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  prepare: async () => ({ tried: 0, confirmed: 0, deleted: 0 }),
  arbitrary: () =>
    fc.record({
      kind: fc.constantFrom(...LINK_KINDS),
      accessMode: fc.constantFrom<AccessMode>('single', 'recurrent'),
      scenario: fc.option(
        fc.constantFrom<Scenario>('next_refresh_invalid_credentials', 'next_refresh_token_required'),
        { nil: null },
      ),
      deleted: fc.boolean(),
    }),
  examples: () => [
    { kind: 'link', accessMode: 'recurrent', scenario: 'next_refresh_invalid_credentials', deleted: false },
    { kind: 'fiscalMx', accessMode: 'recurrent', scenario: 'next_refresh_token_required', deleted: true },
  ],
  async check({ kind, accessMode, scenario, deleted }, run, fixture) {
    await withWebhooks(run, { environment: 'sandbox' }, async (hooks) => {
      const link = await hooks.register(kind, accessMode);
      const what = `in sandbox, ${accessMode} ${KIND_NAMES[kind]} link ${link}`;
      const created = keysOf((await hooks.collect(link, (d) => keysOf(d).some(isHistorical))).deliveries);
      if (!created.some(isHistorical))
        fail(`${what} got no historical event on creation (got: ${created.join(', ') || 'nothing'})`);
      const early = created.filter((key) => / new_/.test(key));
      if (early.length > 0)
        fail(`${what} got ${early.join(', ')} before any refresh; new events only follow a refresh`);
      if (scenario && accessMode === 'recurrent') {
        // No waiting for deliveries here: none is due (the log settles below).
        await addLinkScenario(run.http, scenario, link);
        await runDailyRefresh(run.http);
        fixture.tried += 1;
        const detail = await run.http.request({ method: 'GET', url: `/api/links/${link}/` });
        if (['invalid', 'token_required'].includes(String(statusOf(detail.json)))) fixture.confirmed += 1;
      }
      if (deleted) {
        await deleteAsync(hooks, link);
        const gone = await run.http.request({ method: 'GET', url: `/api/links/${link}/` });
        if (gone.status === 404) fixture.deleted += 1;
      }
      const { deliveries, log } = await hooks.collect(link);
      const delivered = payloadsOf(deliveries).filter((p) => p.webhook_type === 'LINK');
      if (delivered.length > 0) fail(`${what} got LINK ${codes(delivered)} at the receiver`);
      const logged = log.map((e) => e.payload).filter((p) => p.webhook_type === 'LINK');
      if (logged.length > 0) fail(`${what} has LINK ${codes(logged)} in /_ofkit/events/`);
    });
  },
  summarize: ({ tried, confirmed, deleted }) => [
    `${confirmed} of ${tried} failing daily refreshes left the link invalid or token_required (the LINK event was due)`,
    `${deleted} links deleted asynchronously were gone (link_deleted was due)`,
  ],
});
