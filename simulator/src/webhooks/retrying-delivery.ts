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

/** The job kind of a repetition (WEBHOOK-RETRY): `{ event, number }`. */
export const WEBHOOK_RETRY = 'webhook retry';

/** The id of the job of attempt `number` of an event: one such job, however often it is scheduled. */
const retryJobId = (eventId: string, number: number) => `webhook-retry:${eventId}:${number}`;

/** An attempt about to be sent: with the configuration and the (virtual) instant it is made at. */
export interface PreparedAttempt {
  event: EventRecord;
  number: number;
  config: WebhookConfig;
  at: number;
  /** The job of the next attempt, scheduled before this one is sent; undefined after the last. */
  nextJob?: string;
}

/**
 * Before attempt `number` is sent: the next attempt is scheduled already (WEBHOOK-RETRY (choice,
 * admin.yaml): repetition n waits n x retry_interval_seconds after the attempt before it, so with 60 s
 * the attempts are at 0, 60, 180, 360, 600 and 900 s). A replica that dies while it sends leaves the
 * next attempt scheduled for another: no delivery is lost with it. A 2xx cancels that job.
 */
export async function prepareAttempt(
  tenant: TenantRuntime,
  event: EventRecord,
  number = 1,
): Promise<PreparedAttempt> {
  const config = await readWebhookConfig(tenant);
  const at = tenant.clock.now();
  if (number > tenant.policy.webhooks.deliveryRepetitions) return { event, number, config, at };
  const nextJob = retryJobId(event.id, number + 1);
  const args = { event: event.id, number: number + 1 };
  await tenant.clock.schedule(
    at + number * config.retry_interval_seconds * 1000,
    WEBHOOK_RETRY,
    args,
    event.id,
    nextJob,
  );
  return { event, number, config, at, nextJob };
}

/** Sends a prepared attempt and records it; the next attempt's job goes once the receiver acknowledged. */
export async function sendAttempt(
  context: DeliveryContext,
  tenant: TenantRuntime,
  { event, number, config, at, nextJob }: PreparedAttempt,
): Promise<void> {
  const started = context.realTime();
  const outcome = await send(context, config, event);
  const duration_ms = Math.max(0, context.realTime() - started);
  const attempt: DeliveryAttempt = { at: new Date(at).toISOString(), ...outcome, duration_ms };
  const status = statusAfter(outcome, number, tenant);
  const recorded = await recordAttempt(tenant, event.id, attempt, status);
  // Delivered, or gone from the log (a reset): no next attempt.
  if (nextJob !== undefined && (status !== 'pending' || !recorded)) await tenant.store.cancelJob(nextJob);
  if (!recorded) return;
  context.onAttempt?.({
    tenant: tenant.id,
    event: event.id,
    payload: event.payload,
    number,
    attempt,
    status,
  });
}

/** Attempt `number` of the event (with the configuration of the moment), then what follows it. */
export async function deliverEvent(
  context: DeliveryContext,
  tenant: TenantRuntime,
  event: EventRecord,
  number = 1,
): Promise<void> {
  await sendAttempt(context, tenant, await prepareAttempt(tenant, event, number));
}

/**
 * Runs a repetition on whichever replica leases it: the event as the log has it now. The job is done
 * once the attempt after it is scheduled; the send goes on in the background (a replica that dies
 * while sending leaves that next attempt to another; a re-run of this job sends the same `webhook_id`
 * again: a duplicate the receiver recognises, as the provider's retries are).
 */
export function webhookRetryRunner(context: DeliveryContext): JobRunner {
  return async (tenant, args) => {
    const event = await findEvent(tenant, String(args.event));
    // Gone from the log (a reset) or already settled (a resend delivered it): nothing to repeat.
    if (event?.status !== 'pending') return;
    const prepared = await prepareAttempt(tenant, event, Number(args.number));
    track(webhookState(tenant).inFlight, sendAttempt(context, tenant, prepared));
  };
}
