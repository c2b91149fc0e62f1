/**
 * WEBHOOK-RETRY: an event's delivery attempts. The first runs when the event is logged; a non-2xx
 * answer, a refused connection or a time-out schedules the next on the tenant's virtual clock, five
 * times, then the event is `failed`. Every attempt is recorded in the event log.
 */
import type { Dispatcher } from 'undici';
import type { JobRunner } from '../core/job-kinds.js';
import type { TenantRuntime } from '../core/tenant.js';
import { type AttemptOutcome, acknowledged, type PostWebhook } from './delivery.js';
import {
  type DeliveryAttempt,
  type EventRecord,
  type EventStatus,
  findEvent,
  recordAttempt,
} from './event-log.js';
import { readWebhookConfig, type WebhookConfig } from './webhook-config.js';
import { track, webhookState } from './webhook-state.js';

/** One delivery attempt as `onAttempt` hears of it. */
export interface AttemptReport {
  tenant: string;
  event: string;
  payload: EventRecord['payload'];
  /** 1 for the first delivery, 2-6 for the repetitions. */
  number: number;
  attempt: DeliveryAttempt;
  /** The event's status after the attempt. */
  status: EventStatus;
}

export interface DeliveryContext {
  /** Sends one attempt (delivery.ts's `postWebhook`, as the assembly composed it). */
  post: PostWebhook;
  /** The hub's connection pool, made on the first delivery. */
  dispatcher: () => Promise<Dispatcher>;
  timeoutMs: number;
  /** The machine's time, read only to measure an attempt's `duration_ms` (network time). */
  realTime: () => number;
  onAttempt?: (report: AttemptReport) => void;
}

function send(context: DeliveryContext, config: WebhookConfig, event: EventRecord): Promise<AttemptOutcome> {
  if (config.url === null || config.mode === 'record') {
    return Promise.resolve({ status: null, error: 'no receiver configured' });
  }
  const target = { url: config.url, bearerToken: config.bearer_token };
  return context.post(target, event.payload, {
    dispatcher: context.dispatcher,
    timeoutMs: context.timeoutMs,
  });
}

/** WEBHOOK-RETRY: a delivery not answered with 2xx is repeated (five times), then recorded as failed. */
const statusAfter = (outcome: AttemptOutcome, number: number, tenant: TenantRuntime): EventStatus => {
  if (acknowledged(outcome)) return 'delivered';
  return number > tenant.policy.webhooks.deliveryRepetitions ? 'failed' : 'pending';
};

/** Attempt `number` of the event (with the configuration of the moment), then what follows it. */
export async function deliverEvent(
  context: DeliveryContext,
  tenant: TenantRuntime,
  event: EventRecord,
  number = 1,
): Promise<void> {
  const config = await readWebhookConfig(tenant);
  const at = tenant.clock.now();
  const started = context.realTime();
  const outcome = await send(context, config, event);
  const duration_ms = Math.max(0, context.realTime() - started);
  const attempt: DeliveryAttempt = { at: new Date(at).toISOString(), ...outcome, duration_ms };
  const status = statusAfter(outcome, number, tenant);
  // Gone from the log (a reset): nothing more to do.
  if (!(await recordAttempt(tenant, event.id, attempt, status))) return;
  context.onAttempt?.({
    tenant: tenant.id,
    event: event.id,
    payload: event.payload,
    number,
    attempt,
    status,
  });
  if (status !== 'pending') return;
  // WEBHOOK-RETRY (choice, admin.yaml): repetition n waits n x retry_interval_seconds after the
  // attempt before it, so with 60 s the attempts are at 0, 60, 180, 360, 600 and 900 s.
  await tenant.clock.schedule(
    at + number * config.retry_interval_seconds * 1000,
    WEBHOOK_RETRY,
    { event: event.id, number: number + 1 },
    event.id,
  );
}

/** The job kind of a repetition (WEBHOOK-RETRY): `{ event, number }`. */
export const WEBHOOK_RETRY = 'webhook retry';

/** Runs a repetition on whichever replica claims it: the event as the log has it now. */
export function webhookRetryRunner(context: DeliveryContext): JobRunner {
  return async (tenant, args) => {
    const event = await findEvent(tenant, String(args.event));
    // Gone from the log (a reset) or already settled (a resend delivered it): nothing to repeat.
    if (event?.status !== 'pending') return;
    track(webhookState(tenant).inFlight, deliverEvent(context, tenant, event, Number(args.number)));
  };
}
