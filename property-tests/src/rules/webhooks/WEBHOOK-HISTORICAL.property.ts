/**
 * WEBHOOK-HISTORICAL: a recurrent link of a generated kind is registered (a bank link possibly through
 * the MFA fixture: 428, then the token), and `historical_update` events arrive for accounts, transactions
 * and owners (bank) or inflow and outflow invoices, tax returns and tax status (fiscal MX), each with the
 * `data` members of the Event catalogue. The refresh variant (the event half of LINK-REFRESH-202,
 * "Operation to event ties"): a single link refreshed with a generated `fetch_resources` (or none) gets
 * the historical events of exactly those resources, each carrying the refresh's `request_id` (in `data`,
 * the document's choice).
 */
import fc from 'fast-check';
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import { describeAnswer } from '../expect-response.js';
import { defineRule, fail } from '../rule.js';
import {
  dataProblems,
  HISTORICAL_EVENTS,
  historicalKeys,
  KIND_NAMES,
  LINK_KINDS,
  type LinkKind,
  resourcesOf,
} from './event-catalogue.js';
import { eventKey } from './webhook-schemas.js';
import { hasKeys, keysOf, payloadsOf, type WebhookSession, withWebhooks } from './webhook-session.js';

interface Input {
  kind: LinkKind;
  /** A bank link registered through the config's MFA fixture (428, then the token). */
  mfa: boolean;
  /** null: a recurrent link's creation; else a single link's refresh (`resources` null: none in the body). */
  refresh: { resources: string[] | null } | null;
}

/** Registers the link and sets off its historical update; what happened, and the refresh's request id. */
async function trigger(hooks: WebhookSession, { kind, mfa, refresh }: Input) {
  if (refresh === null) {
    const { registration } = hooks.run.config.fixtures.mfa;
    const link = await (mfa
      ? hooks.registerWith(registration, 'recurrent')
      : hooks.register(kind, 'recurrent'));
    const name = mfa ? 'bank (MFA registration)' : KIND_NAMES[kind];
    return { link, what: `creating recurrent ${name} link ${link}`, requestId: undefined };
  }
  const link = await hooks.register(kind, 'single');
  const json: JsonObject = refresh.resources ? { fetch_resources: refresh.resources } : {};
  const url = `/api/links/${link}/refresh/`;
  const answer = await hooks.run.http.request({ method: 'POST', url, json });
  const requestId = isObject(answer.json) ? answer.json.request_id : undefined;
  if (answer.status !== 202 || typeof requestId !== 'string') {
    fail(
      `POST ${url} ${JSON.stringify(json)} answered ${describeAnswer(answer)}; wanted 202 with a request_id`,
    );
  }
  return {
    link,
    what: `refreshing single ${KIND_NAMES[kind]} link ${link} with ${JSON.stringify(json)}`,
    requestId,
  };
}

function dataOfEvent(kind: LinkKind, payload: JsonObject): string[] {
  const key = eventKey(payload.webhook_type, payload.webhook_code);
  const event = HISTORICAL_EVENTS[kind].find((e) => eventKey(e.type, e.code) === key);
  return event ? dataProblems(payload.data, event.data).map((problem) => `${key}: ${problem}`) : [];
}

export const webhookHistorical = defineRule<Input>({
  id: 'WEBHOOK-HISTORICAL',
  area: 'webhooks',
  operations: ['registerLink'],
  tenantWide: 'clock',
  needs: ['control-api'],
  runs: 3,
  arbitrary: () =>
    fc.constantFrom(...LINK_KINDS).chain((kind) =>
      fc.record({
        kind: fc.constant(kind),
        mfa: kind === 'link' ? fc.boolean() : fc.constant(false),
        refresh: fc.option(
          fc.record({
            resources: fc.option(fc.subarray(resourcesOf(kind), { minLength: 1 }), { nil: null }),
          }),
          { nil: null },
        ),
      }),
    ),
  examples: () => [
    { kind: 'link', mfa: true, refresh: null },
    { kind: 'fiscalMx', mfa: false, refresh: null },
  ],
  async check(input, run) {
    await withWebhooks(run, {}, async (hooks) => {
      const { link, what, requestId } = await trigger(hooks, input);
      const expected = historicalKeys(input.kind, input.refresh?.resources ?? undefined);
      const { deliveries } = await hooks.collect(link, hasKeys(expected));
      const got = keysOf(deliveries);
      const missing = expected.filter((key) => !got.includes(key));
      if (missing.length > 0)
        fail(`${what}: no ${missing.join(', ')} arrived (got: ${got.join(', ') || 'nothing'})`);
      const extra = historicalKeys(input.kind).filter((key) => got.includes(key) && !expected.includes(key));
      if (extra.length > 0)
        fail(`${what}: ${extra.join(', ')} arrived too; the refresh's fetch_resources limit it`);
      const payloads = payloadsOf(deliveries);
      const problems = payloads.flatMap((payload) => dataOfEvent(input.kind, payload));
      if (problems.length > 0) fail(`${what}: ${problems.join('; ')}`);
      for (const payload of payloads) {
        const carried = isObject(payload.data) ? payload.data.request_id : undefined;
        if (requestId !== undefined && carried !== requestId) {
          const key = eventKey(payload.webhook_type, payload.webhook_code);
          fail(
            `${what}: ${key} carries request_id ${JSON.stringify(carried)}, not the refresh's ${requestId} (LINK-REFRESH-202)`,
          );
        }
      }
    });
  },
});
