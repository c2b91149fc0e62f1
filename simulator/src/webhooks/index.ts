/** The webhooks part of the simulator: emitter, triggers, daily refresh, control handlers, ticker. */
export { createTick, startClockTicker } from './clock-ticker.js';
export { runDailyRefresh } from './daily-refresh.js';
export { ensureDailyRefresh } from './daily-schedule.js';
export type { DeliveryAttempt, EventFilter, EventRecord, WebhookPayload } from './event-log.js';
export { EVENTS_COLLECTION, listEvents } from './event-log.js';
export { type LinkTriggers, linkTriggers } from './link-triggers.js';
export type { RaisedEvent, RaiseEvent } from './raised-event.js';
export { type AttemptReport, REPETITIONS } from './retrying-delivery.js';
export {
  readWebhookConfig,
  WEBHOOKS_COLLECTION,
  type WebhookConfig,
  writeWebhookConfig,
} from './webhook-config.js';
export { createWebhookHub, type WebhookHub, type WebhookHubOptions } from './webhook-emitter.js';
