/**
 * WEBHOOK-RETRY: an event's delivery attempts. The first runs when the event is logged; a non-2xx
 * answer, a refused connection or a time-out schedules the next on the tenant's virtual clock, five
 * times, then the event is `failed`. Every attempt is recorded in the event log.
 */
import type { Dispatcher } from 'undici';
import type { JobRunner } from '../core/job-kinds.js';
import type { TenantRuntime } from '../core/tenant.js';
import { STORM_HEADER, STORM_MARK } from '../situations/storm-switch.js';
import { type AttemptOutcome, acknowledged, type PostWebhook } from './delivery.js';
import type { DestinationCheck } from './destinations.js';
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
  /** The machine's time the attempt was sent (what the judge orders a receiver's reads by). */
  sentRealMs: number;
  /** The event's status after the attempt. */
  status: EventStatus;
}

export interface DeliveryContext {
  /** Sends one attempt (delivery.ts's `postWebhook`, as the assembly composed it). */
  post: PostWebhook;
  /** The hub's connection pool, made on the first delivery. */
  dispatcher: () => Promise<Dispatcher>;
  timeoutMs: number;
  /** Where deliveries may go (destinations.ts). */
  destinations: DestinationCheck;
  /** The machine's time, read only to measure an attempt's `duration_ms` (network time). */
  realTime: () => number;
  onAttempt?: (report: AttemptReport) => void;
}

function send(context: DeliveryContext, config: WebhookConfig, event: EventRecord): Promise<AttemptOutcome> {
  if (config.url === null || config.mode === 'record') {
    return Promise.resolve({ status: null, error: 'no receiver configured' });
  }
  const target = {
    url: config.url,
    bearerToken: config.bearer_token,
    ...(event.storm && { headers: { [STORM_HEADER]: STORM_MARK } }),
  };
  return context.post(target, event.payload, {
    dispatcher: context.dispatcher,
    timeoutMs: context.timeoutMs,
    destinations: context.destinations,
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
  /** The next attempt's job when it was scheduled before this one was sent (a first attempt's). */
  nextJob?: string;
}

/**
 * WEBHOOK-RETRY (choice, admin.yaml): repetition n waits n x retry_interval_seconds after the attempt
 * before it, so with 60 s the attempts are at 0, 60, 180, 360, 600 and 900 s.
 */
async function scheduleNext(tenant: TenantRuntime, { event, number, config, at }: PreparedAttempt) {
  const id = retryJobId(event.id, number + 1);
  const args = { event: event.id, number: number + 1 };
  await tenant.clock.schedule(
    at + number * config.retry_interval_seconds * 1000,
    WEBHOOK_RETRY,
    args,
    event.id,
    id,
  );
  return id;
}

/**
 * Before attempt `number` is sent. A first attempt (not a job: sent by the replica that logged the
 * event) has its repetition scheduled already, so that a replica that dies while it sends loses no
 * delivery; a 2xx cancels that job. A repetition is a job, leased while it sends: it schedules the next
 * one after its answer, as the provider does.
 */
export async function prepareAttempt(
  tenant: TenantRuntime,
  event: EventRecord,
  number = 1,
): Promise<PreparedAttempt> {
  const prepared = { event, number, config: await readWebhookConfig(tenant), at: tenant.clock.now() };
  if (number > 1 || number > tenant.policy.webhooks.deliveryRepetitions) return prepared;
  return { ...prepared, nextJob: await scheduleNext(tenant, prepared) };
}

/** Sends a prepared attempt and records it; then the next attempt, when the answer was not a 2xx. */
export function sendAttempt(
  context: DeliveryContext,
  tenant: TenantRuntime,
  prepared: PreparedAttempt,
): Promise<void> {
  const { sending } = webhookState(tenant);
  const sent = sendAndRecord(context, tenant, prepared).finally(() => {
    if (sending.get(prepared.event.id) === sent) sending.delete(prepared.event.id);
  });
  sending.set(prepared.event.id, sent);
  return sent;
}

async function sendAndRecord(
  context: DeliveryContext,
  tenant: TenantRuntime,
  prepared: PreparedAttempt,
): Promise<void> {
  const { event, number, config, at, nextJob } = prepared;
  const started = context.realTime();
  const outcome = await send(context, config, event);
  const duration_ms = Math.max(0, context.realTime() - started);
  const attempt: DeliveryAttempt = { at: new Date(at).toISOString(), ...outcome, duration_ms };
  const status = statusAfter(outcome, number, tenant);
  const recorded = await recordAttempt(tenant, event.id, attempt, status);
  // Gone from the log (a reset) or delivered: no next attempt; else the next one, if not scheduled yet.
  if (status !== 'pending' || !recorded) {
    if (nextJob !== undefined) await tenant.store.cancelJob(nextJob);
  } else if (nextJob === undefined) {
    await scheduleNext(tenant, prepared);
  }
  if (!recorded) return;
  context.onAttempt?.({
    tenant: tenant.id,
    event: event.id,
    payload: event.payload,
    number,
    attempt,
    sentRealMs: started,
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
 * Runs a repetition on whichever replica leases it: the event as the log has it now. The send goes on
 * in the background (the clock does not wait for a receiver), the job kept leased until it is done: a
 * replica that dies while sending leaves the job to another, which sends the same `webhook_id` again
 * (a duplicate the receiver recognises, as the provider's retries are).
 */
export function webhookRetryRunner(context: DeliveryContext): JobRunner {
  return async (tenant, args, job) => {
    // The attempt before this one, still waiting for its answer here: its outcome decides (a failure of
    // it is its own to report).
    await webhookState(tenant)
      .sending.get(String(args.event))
      ?.catch(() => undefined);
    const event = await findEvent(tenant, String(args.event));
    // Gone from the log (a reset) or already settled (a resend delivered it): nothing to repeat.
    if (event?.status !== 'pending') return;
    const prepared = await prepareAttempt(tenant, event, Number(args.number));
    job.keep(track(webhookState(tenant).inFlight, sendAttempt(context, tenant, prepared)));
  };
}
