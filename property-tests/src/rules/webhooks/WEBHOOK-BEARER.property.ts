/**
 * WEBHOOK-BEARER: the webhook is configured with a generated bearer token (token68 characters); every
 * delivery that a recurrent link's creation (and optionally a daily refresh) causes carries
 * `Authorization: Bearer <token>`.
 */
import fc from 'fast-check';
import { defineRule, fail } from '../rule.js';
import { historicalKeys, LINK_KINDS, type LinkKind } from './event-catalogue.js';
import { pullTrigger } from './event-triggers.js';
import { hasKeys, withWebhooks } from './webhook-session.js';

interface Input {
  token: string;
  kind: LinkKind;
  refresh: boolean;
}

const TOKEN68 = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'];

export const webhookBearer = defineRule<Input>({
  id: 'WEBHOOK-BEARER',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  arbitrary: () =>
    fc.record({
      token: fc.string({ unit: fc.constantFrom(...TOKEN68), minLength: 1, maxLength: 32 }),
      kind: fc.constantFrom(...LINK_KINDS),
      refresh: fc.boolean(),
    }),
  async check({ token, kind, refresh }, run) {
    await withWebhooks(run, { bearerToken: token }, async (hooks) => {
      const link = await hooks.register(kind, 'recurrent');
      await hooks.collect(link, hasKeys(historicalKeys(kind)));
      if (refresh) await pullTrigger(hooks, link, 'daily-refresh');
      const { deliveries } = hooks.channel;
      if (deliveries.length === 0) fail(`no delivery reached ${hooks.channel.url} to carry the token`);
      const wanted = `Bearer ${token}`;
      for (const delivery of deliveries) {
        const got = delivery.headers.authorization;
        if (got !== wanted) {
          const shown =
            got === undefined ? 'no Authorization header' : `Authorization: ${JSON.stringify(got)}`;
          fail(
            `with bearer_token ${JSON.stringify(token)} configured, the delivery ${delivery.text.slice(0, 160)} came with ${shown}; wanted "${wanted}"`,
          );
        }
      }
    });
  },
});
