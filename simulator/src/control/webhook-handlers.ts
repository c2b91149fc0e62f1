/**
 * Control API handlers of the webhooks (admin.yaml): the configuration (`/_ofkit/webhooks/`), the event
 * log with every delivery attempt (`/_ofkit/events/`) and the daily refresh on demand
 * (`/_ofkit/daily-refresh/`, WEBHOOK-DAILY). Each call also makes sure the tenant's daily refresh is
 * scheduled on its clock.
 */

import { apiError } from '../core/api-error.js';
import { type Handler, json } from '../core/handler.js';
import type { LinkData } from '../core/link-data.js';
import { err, ok } from '../core/result.js';
import { runDailyRefresh } from '../links/events/daily-refresh.js';
import { ensureDailyRefresh } from '../links/events/daily-schedule.js';
import { type EventFilter, findEvent, listEvents } from '../webhooks/event-log.js';
import { readWebhookConfig, type WebhookConfig, writeWebhookConfig } from '../webhooks/webhook-config.js';
import { webhookState } from '../webhooks/webhook-state.js';

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export function webhookControlHandlers(linkData: LinkData): [string, Handler][] {
  const getWebhookConfig: Handler = async ({ tenant }) => {
    await ensureDailyRefresh(tenant);
    return ok(json(200, await readWebhookConfig(tenant)));
  };

  const setWebhookConfig: Handler = async ({ input, tenant }) => {
    const body = input.body as Partial<WebhookConfig>;
    // A simulator listening beyond loopback calls no internal address it was not allowed (destinations.ts).
    const refusal =
      typeof body.url === 'string' ? await webhookState(tenant).destinations?.refusalOf(body.url) : undefined;
    if (refusal) return err(apiError('invalid', { field: 'url', message: `url ${refusal}` }));
    const config = await writeWebhookConfig(tenant, body);
    // A new `daily_refresh_time` takes effect from the next occurrence.
    await ensureDailyRefresh(tenant, true);
    return ok(json(200, config));
  };

  const listEventLog: Handler = async ({ input, tenant }) => {
    await ensureDailyRefresh(tenant);
    const filter: EventFilter = {
      link: text(input.query.link),
      webhook_type: text(input.query.webhook_type),
      webhook_code: text(input.query.webhook_code),
    };
    return ok(json(200, await listEvents(tenant, filter)));
  };

  const runDailyRefreshNow: Handler = async ({ tenant }) => {
    await ensureDailyRefresh(tenant);
    return ok(json(202, { links_refreshed: await runDailyRefresh(linkData, tenant) }));
  };

  // Not WEBHOOK-RETRY's own retries: the tester asks for a new delivery (the dashboard's re-send).
  const resendEvent: Handler = async ({ input, tenant }) => {
    const id = String(input.path.event_id);
    const event = await findEvent(tenant, id);
    if (!event) return err(apiError('not_found', { message: `No event ${id}.` }));
    webhookState(tenant).resend?.(event.id);
    return ok(json(202, event));
  };

  return [
    ['resendEvent', resendEvent],
    ['getWebhookConfig', getWebhookConfig],
    ['setWebhookConfig', setWebhookConfig],
    ['listEvents', listEventLog],
    ['runDailyRefresh', runDailyRefreshNow],
  ];
}
