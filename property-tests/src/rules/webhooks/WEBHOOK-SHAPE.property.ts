/**
 * WEBHOOK-SHAPE: a recurrent link of a generated kind (bank, fiscal MX) is registered with the target
 * delivering to the suite's receiver, then optionally refreshed (with a failing-login scenario or not) or
 * deleted asynchronously (`link_deleted`). Every request the receiver got is a POST of a JSON object
 * with `webhook_type`, `webhook_code`, `link_id` and an object `data`, valid against the `webhooks`
 * schema of its type and code (which requires `webhook_id` for every event but `token_required`,
 * LINK-TOKEN-REQUIRED).
 */
import fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import { isJsonContentType } from '../expect-response.js';
import { defineRule, fail } from '../rule.js';
import { historicalKeys, LINK_KINDS, type LinkKind } from './event-catalogue.js';
import { pullTrigger, type Trigger, triggers } from './event-triggers.js';
import type { Delivery } from './webhook-receiver.js';
import { eventKey, payloadProblems } from './webhook-schemas.js';
import { hasKeys, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  trigger: Trigger;
}

interface Fixture {
  /** The events judged, by `<type> <code>` (for the report). */
  judged: Map<string, number>;
}

const MEMBERS = ['webhook_type', 'webhook_code', 'link_id', 'data'] as const;

/** What is wrong with one delivery's method and envelope (the schema judges the rest). */
function envelopeProblem(delivery: Delivery): string | undefined {
  if (delivery.method !== 'POST') return `a ${delivery.method} request, not a POST`;
  const type = delivery.headers['content-type'] ?? '';
  if (!isJsonContentType(type))
    return `a body of content-type "${type}", not JSON: ${delivery.text.slice(0, 200)}`;
  const payload = delivery.payload;
  if (!payload) return `a body that is not a JSON object: ${delivery.text.slice(0, 200)}`;
  const missing = MEMBERS.filter((member) => payload[member] === undefined);
  if (missing.length > 0) return `a body without ${missing.join(', ')}: ${delivery.text.slice(0, 200)}`;
  if (!isObject(payload.data)) return `\`data\` that is not an object: ${delivery.text.slice(0, 200)}`;
  return undefined;
}

export const webhookShape = defineRule<Input, Fixture>({
  id: 'WEBHOOK-SHAPE',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  prepare: async () => ({ judged: new Map<string, number>() }),
  arbitrary: () => fc.record({ kind: fc.constantFrom(...LINK_KINDS), trigger: triggers() }),
  examples: () => [{ kind: 'fiscalMx', trigger: 'async-delete' }],
  async check({ kind, trigger }, run, { judged }) {
    await withWebhooks(run, {}, async (hooks) => {
      const link = await hooks.register(kind, 'recurrent');
      await hooks.collect(link, hasKeys(historicalKeys(kind)));
      await pullTrigger(hooks, link, trigger);
      const { deliveries } = hooks.channel;
      if (hooks.deliveriesOf(link).length === 0) {
        fail(`no delivery of link ${link} reached the configured URL ${hooks.channel.url}`);
      }
      for (const delivery of deliveries) {
        const problem = envelopeProblem(delivery);
        if (problem) fail(`the receiver got ${problem}`);
        const payload = delivery.payload!;
        const problems = payloadProblems(run.document, payload);
        if (problems.length > 0) {
          fail(
            `the delivery ${delivery.text.slice(0, 300)} breaks its webhook schema: ${problems.join('; ')}`,
          );
        }
        const key = eventKey(payload.webhook_type, payload.webhook_code);
        judged.set(key, (judged.get(key) ?? 0) + 1);
      }
    });
  },
  summarize: ({ judged }) => [`judged: ${[...judged].map(([key, count]) => `${key} x${count}`).join(', ')}`],
});
