/** The webhook rules broken the way real servers get them wrong (WEBHOOK-*). */
import { DAY_MS } from '../core/time.js';
import type { PostWebhook } from '../webhooks/delivery.js';
import { type Edges, type RuleBreaks, rewriteEvents } from './edges.js';

/** `edges` whose webhook POSTs go out changed by `change`. */
const rewritePost = (
  edges: Edges,
  change: (...args: Parameters<PostWebhook>) => Parameters<PostWebhook>,
): Edges => ({
  ...edges,
  post: (...args) => edges.post(...change(...args)),
});

export const WEBHOOK_BREAKS = {
  'WEBHOOK-SHAPE': {
    description: 'deliveries without `webhook_id` (kept only in the event log)',
    edges: (edges) =>
      rewritePost(edges, (target, payload, options) => {
        const { webhook_id: _left, ...body } = payload as typeof payload & { webhook_id?: string };
        return [target, body as typeof payload, options];
      }),
  },
  'WEBHOOK-BEARER': {
    description: 'deliveries without the configured bearer token',
    edges: (edges) =>
      rewritePost(edges, (target, payload, options) => [{ ...target, bearerToken: null }, payload, options]),
  },
  'WEBHOOK-RETRY': {
    description: 'off-by-one: four repetitions of a failed delivery, not five',
    policy: (policy) => ({
      ...policy,
      webhooks: { ...policy.webhooks, deliveryRepetitions: policy.webhooks.deliveryRepetitions - 1 },
    }),
  },
  'WEBHOOK-RECURRENT-ONLY': {
    description: 'the daily refresh sends `new_*_available` to single links too',
    policy: (policy) => ({ ...policy, links: { ...policy.links, dailyRefreshSingleLinks: true } }),
  },
  'WEBHOOK-SANDBOX': {
    description: 'the sandbox check forgotten on LINK events: sandbox sends them',
    policy: (policy) => ({ ...policy, webhooks: { ...policy.webhooks, linkEventsInSandbox: true } }),
  },
  'WEBHOOK-HISTORICAL': {
    description: 'owners left out of the banking historical update',
    edges: (edges) =>
      rewriteEvents(edges, (event) =>
        event.webhook_type === 'OWNERS' && event.webhook_code === 'historical_update' ? undefined : event,
      ),
  },
  'WEBHOOK-DAILY': {
    description: '`new_*_available` counts every stored record, not the new ones',
    policy: (policy) => ({ ...policy, links: { ...policy.links, dailyCountsNewOnly: false } }),
  },
  'WEBHOOK-FOLLOW-UP': {
    description: '`last_transaction_date` of the event a day late (a date taken in another time zone)',
    edges: (edges) =>
      rewriteEvents(edges, (event, tenant) => {
        if (!('last_transaction_date' in event.data)) return event;
        const late = new Date(tenant.clock.now() + DAY_MS).toISOString().slice(0, 10);
        return { ...event, data: { ...event.data, last_transaction_date: late } };
      }),
  },
} satisfies Record<string, RuleBreaks>;
