/**
 * LINK-INVALID-CREDENTIALS and LINK-TOKEN-REQUIRED: a recurrent link whose next daily refresh fails to
 * log in (the control API's scenario switch), refreshed through the control API or the clock. The link's
 * status changes, and the LINK event arrives with the catalogue's `data` (`status` 400 or 428), with a
 * `webhook_id` or, for `token_required`, without one.
 */
import fc from 'fast-check';
import { isObject, type JsonObject } from '../../../../openapi/document/json.js';
import { fail, type RunContext } from '../rule.js';
import { statusOf } from './daily-snapshot.js';
import {
  dataProblems,
  historicalKeys,
  KIND_NAMES,
  LINK_EVENTS,
  LINK_KINDS,
  type LinkKind,
} from './event-catalogue.js';
import { dailyRefresh, type RefreshVia, refreshVia, type Scenario } from './event-triggers.js';
import { addLinkScenario } from './webhook-control.js';
import { eventKey } from './webhook-schemas.js';
import { hasKeys, payloadsOf, withWebhooks } from './webhook-session.js';

export interface FailedLoginInput {
  kind: LinkKind;
  via: RefreshVia;
}

export interface FailedLogin {
  scenario: Scenario;
  code: keyof typeof LINK_EVENTS;
  /** `data.status` of the event. */
  status: 400 | 428;
  /** The link's status after the refresh. */
  linkStatus: 'invalid' | 'token_required';
  /** Whether the payload carries `webhook_id` (not `token_required`'s, as the spec shows it). */
  webhookId: boolean;
}

export const failedLoginInputs = (): fc.Arbitrary<FailedLoginInput> =>
  fc.record({ kind: fc.constantFrom(...LINK_KINDS), via: refreshVia() });

function payloadProblems(payload: JsonObject, spec: FailedLogin): string[] {
  const data = isObject(payload.data) ? payload.data : {};
  const problems = dataProblems(data, LINK_EVENTS[spec.code]);
  if (data.status !== spec.status)
    problems.push(`data.status is ${JSON.stringify(data.status)}, not ${spec.status}`);
  const generation = data.token_generation_data;
  if (spec.code === 'token_required' && isObject(generation)) {
    const fields = { instructions: 'string', type: 'string', value: 'string' } as const;
    problems.push(
      ...dataProblems(generation, fields).map((p) => p.replace('data.', 'data.token_generation_data.')),
    );
  }
  const hasId = typeof payload.webhook_id === 'string';
  if (spec.webhookId && !hasId) problems.push('no webhook_id');
  if (!spec.webhookId && 'webhook_id' in payload)
    problems.push(`a webhook_id ${JSON.stringify(payload.webhook_id)}`);
  return problems;
}

/** One run: the scenario, the daily refresh, the link's status and its LINK event. */
export async function checkFailedLogin(run: RunContext, { kind, via }: FailedLoginInput, spec: FailedLogin) {
  await withWebhooks(run, {}, async (hooks) => {
    const link = await hooks.register(kind, 'recurrent');
    await hooks.collect(link, hasKeys(historicalKeys(kind)));
    await addLinkScenario(run.http, spec.scenario, link);
    const before = hooks.deliveriesOf(link).length;
    await dailyRefresh(hooks, via);
    const key = eventKey('LINK', spec.code);
    const isEvent = (payload: JsonObject) => eventKey(payload.webhook_type, payload.webhook_code) === key;
    const { deliveries } = await hooks.collect(link, (d) => payloadsOf(d.slice(before)).some(isEvent));
    const what = `recurrent ${KIND_NAMES[kind]} link ${link} after a daily refresh with ${spec.scenario}`;
    const url = `/api/links/${link}/`;
    const detail = await run.http.request({ method: 'GET', url });
    const status = statusOf(detail.json);
    if (status !== spec.linkStatus)
      fail(`${what}: GET ${url} shows status ${JSON.stringify(status)}, not ${spec.linkStatus}`);
    const events = payloadsOf(deliveries.slice(before)).filter(isEvent);
    if (events.length === 0) fail(`${what}: no ${key} event arrived`);
    for (const payload of events) {
      const problems = payloadProblems(payload, spec);
      if (problems.length > 0)
        fail(`${what}: the ${key} event ${JSON.stringify(payload).slice(0, 300)} has ${problems.join('; ')}`);
    }
  });
}
