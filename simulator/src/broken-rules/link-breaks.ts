/** The link rules broken the way real servers get them wrong (LINK-*, DELETE-RATE-LIMIT, TOKEN-WIDGET). */

import type { SimResponse } from '../core/http-types.js';
import type { RulePolicy } from '../core/rule-policy.js';
import { DAY_MS } from '../core/time.js';
import { ignoreHeader, type RuleBreaks, rewriteEvents, withStages, wrapHandlers } from './edges.js';

const links = (policy: RulePolicy, change: Partial<RulePolicy['links']>): RulePolicy => ({
  ...policy,
  links: { ...policy.links, ...change },
});

const nextDay = (policy: RulePolicy, change: Partial<RulePolicy['links']['nextDayUpdateAfter']>) =>
  links(policy, { nextDayUpdateAfter: { ...policy.links.nextDayUpdateAfter, ...change } });

/** LINK-MFA-428 broken: a 428's error items rendered without their `session`. */
function withoutSession(response: SimResponse): SimResponse {
  if (response.status !== 428 || !Array.isArray(response.body)) return response;
  const items = response.body as Record<string, unknown>[];
  return { ...response, body: items.map(({ session: _kept, ...item }) => item) };
}

export const LINK_BREAKS = {
  'LINK-REGISTER': {
    description: "link registration answers 200 (the framework's default), not 201",
    edges: (edges) =>
      wrapHandlers(edges, ['registerLink'], (handler) => async (context) => {
        const answered = await handler(context);
        return answered.ok && answered.value.status === 201
          ? { ok: true, value: { ...answered.value, status: 200 } }
          : answered;
      }),
  },
  'LINK-MFA-428': {
    description: 'the MFA token is never compared: any token resumes a paused request',
    policy: (policy) => links(policy, { mfaTokenChecked: false }),
    variants: {
      'no-session': {
        description: 'the 428 item without `session` (kept server-side): the PATCH cannot name it',
        edges: (edges) =>
          withStages(edges, ({ renderErrors }) => ({
            renderErrors: (errors, requestId) => withoutSession(renderErrors(errors, requestId)),
          })),
      },
      'wrong-token-ends-session': {
        description: 'a wrong token uses up the session: the right token sent next on it gets 400',
        policy: (policy) => links(policy, { mfaSessionSurvivesWrongToken: false }),
      },
    },
  },
  'LINK-ACCESS-MODE-UP': {
    description: 'single -> recurrent stored, but the next-day historical update never scheduled',
    policy: (policy) => nextDay(policy, { upgrade: false }),
  },
  'LINK-ACCESS-MODE-DOWN': {
    description: 'recurrent -> single also runs a historical update (any mode change does)',
    policy: (policy) => nextDay(policy, { downgrade: true }),
  },
  'LINK-PATCH-NO-UPDATE': {
    description: 'every PATCH of a recurrent link runs a historical update the next day',
    policy: (policy) => nextDay(policy, { recurrentPatch: true }),
  },
  'LINK-INVALID-CREDENTIALS': {
    description: 'the event is sent but the link is left `valid` after the refused login',
    policy: (policy) => links(policy, { refusedLoginInvalidates: false }),
  },
  'LINK-TOKEN-REQUIRED': {
    description: 'the `token_required` event sent with a `webhook_id`, like every other event',
    edges: (edges) =>
      rewriteEvents(edges, (event) =>
        event.webhook_code === 'token_required' ? { ...event, withoutWebhookId: false } : event,
      ),
  },
  'LINK-PUT-CREDENTIALS': {
    description: 'new credentials stored, the link left `invalid` or `token_required`',
    policy: (policy) => links(policy, { newCredentialsRevalidate: false }),
  },
  'LINK-DELETE-SYNC': {
    description: 'the link row deleted, its data left behind (no cascade)',
    policy: (policy) => links(policy, { deletionTakesData: false }),
  },
  'LINK-DELETE-ASYNC': {
    description: '`X-Service-Request-Mode: async` never read: the link deleted at once, 204',
    edges: (edges) => ignoreHeader(edges, ['deleteLink'], 'x-service-request-mode'),
  },
  'LINK-REFRESH-202': {
    description: "the refresh's `fetch_resources` saved on the link",
    policy: (policy) => links(policy, { refreshStoresFetchResources: true }),
  },
  'LINK-REFRESH-COOLDOWN': {
    description: 'no cooldown: a second refresh within 10 minutes is accepted',
    policy: (policy) => links(policy, { refreshCooldownMs: null }),
  },
  'DELETE-RATE-LIMIT': {
    description: 'no deletion rate limit',
    policy: (policy) => ({ ...policy, deletionLimits: {} }),
  },
  'TOKEN-WIDGET': {
    description: 'a widget token that lasts a day (expires_in 86400), not a short-lived one',
    policy: (policy) => links(policy, { widgetTokenSeconds: DAY_MS / 1000 }),
  },
} satisfies Record<string, RuleBreaks>;
