/**
 * The webhook emitter: each tenant's `emit` numbers a raised event, appends it to the tenant's event
 * log and delivers it as the tenant's configuration says. `emit` returns at once: the log write and
 * the deliveries run in the background, each tenant's independently of the others'; retries are jobs
 * on the tenant's virtual clock (WEBHOOK-RETRY), so tests advance the clock instead of waiting.
 */
import type { Dispatcher } from 'undici';
import type { RaisedEvent, RaiseEvent } from '../core/events.js';
import type { JobKinds } from '../core/job-kinds.js';
import type { TenantRuntime } from '../core/tenant.js';
import { type PostWebhook, postWebhook } from './delivery.js';
import { ANYWHERE, createDestinationCheck, type DestinationRules } from './destinations.js';
import { appendEvent, type EventRecord, findEvent, type WebhookPayload } from './event-log.js';
import {
  type AttemptReport,
  type DeliveryContext,
  deliverEvent,
  type PreparedAttempt,
  prepareAttempt,
  sendAttempt,
  WEBHOOK_RETRY,
  webhookRetryRunner,
} from './retrying-delivery.js';
import { readWebhookConfig } from './webhook-config.js';
import {
  NO_RECEIVER,
  settled,
  type TenantWebhookState,
  track,
  type WebhookDefaults,
  webhookState,
} from './webhook-state.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

export interface WebhookHubOptions {
  /** The machine's time, read only to measure an attempt's `duration_ms` (network time). */
  realTime: () => number;
  /** The receiver every tenant starts with (`--webhook-url`, `--webhook-bearer`). */
  defaults?: WebhookDefaults;
  /** Time-out of one attempt, from connecting to the end of the answer; default 10 s. */
  timeoutMs?: number;
  /** Told of every attempt (the core emits, the CLI decides what to print). */
  onAttempt?: (report: AttemptReport) => void;
  /** Where the hub defines its job kinds (the repetitions of WEBHOOK-RETRY). */
  jobs: JobKinds;
  /** Sends one attempt; default delivery.ts's `postWebhook`. */
  post?: PostWebhook;
  /** Where deliveries (and the judge's probes) may go; default anywhere (destinations.ts). */
  destinations?: DestinationRules;
}

export interface WebhookHub {
  /** The `emitterFor` option of the tenant registry: the tenant's `emit`. */
  emitterFor(tenant: TenantRuntime): RaiseEvent;
  /**
   * Resolves when no event-log write and no delivery attempt is in flight, of `tenant` or of every
   * tenant (retries not yet due on the clock are not in flight).
   */
  idle(tenant?: TenantRuntime): Promise<void>;
  /** Closes the connections to the receivers. */
  close(): Promise<void>;
}

/** WEBHOOK-SHAPE; LINK-TOKEN-REQUIRED: that event carries no `webhook_id`. */
function toPayload(id: string, event: RaisedEvent): WebhookPayload {
  const { webhook_type, webhook_code, link_id, data } = event;
  const body = { webhook_type, webhook_code, link_id, data };
  return event.withoutWebhookId ? body : { webhook_id: id, ...body };
}

/**
 * Logs the event (WEBHOOK-SANDBOX: not a LINK event in sandbox) and, when it is to be delivered,
 * schedules its second attempt before the first is sent (so a replica that dies sending loses
 * nothing). An event logged already (raised again by a job run again) is delivered only if its first
 * attempt was never made.
 */
async function logEvent(tenant: TenantRuntime, event: EventRecord): Promise<PreparedAttempt | undefined> {
  const config = await readWebhookConfig(tenant);
  const sandboxed = config.environment === 'sandbox' && !tenant.policy.webhooks.linkEventsInSandbox;
  if (sandboxed && event.payload.webhook_type === 'LINK') return undefined;
  const delivers = config.mode === 'deliver' && config.url !== null;
  const logged = await appendEvent(tenant, { ...event, status: delivers ? 'pending' : 'recorded' });
  if (logged.status !== 'pending' || logged.attempts.length > 0) return undefined;
  return prepareAttempt(tenant, logged);
}

export function createWebhookHub(options: WebhookHubOptions): WebhookHub {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const destinations = createDestinationCheck(options.destinations ?? ANYWHERE);
  // undici (~0.4 s to import) loads on the first delivery, not at every start. Its connections resolve
  // names through the destinations' lookup: the address checked is the one connected to.
  let agent: Promise<Dispatcher> | undefined;
  const dispatcher = () => {
    agent ??= import('undici').then(
      ({ Agent }) =>
        new Agent({ connect: { timeout: timeoutMs, lookup: destinations.lookup }, keepAliveTimeout: 1000 }),
    );
    return agent;
  };
  const context: DeliveryContext = {
    post: options.post ?? postWebhook,
    dispatcher,
    timeoutMs,
    destinations,
    realTime: options.realTime,
    onAttempt: options.onAttempt,
  };
  const states = new Set<TenantWebhookState>();
  options.jobs.define(WEBHOOK_RETRY, webhookRetryRunner(context));

  function emitterFor(tenant: TenantRuntime): RaiseEvent {
    const state = webhookState(tenant);
    state.defaults = options.defaults ?? NO_RECEIVER;
    state.destinations = destinations;
    // The judge's probes: the same checked connections, never a break of the delivery (the assembly's `post`).
    state.probe = (target, payload) =>
      postWebhook(target, payload as WebhookPayload, { dispatcher, timeoutMs, destinations });
    states.add(state);
    // A re-send is a new delivery: attempt 1, then the retries of WEBHOOK-RETRY again.
    state.resend = (eventId) => {
      const delivery = findEvent(tenant, eventId).then((event) =>
        event ? deliverEvent(context, tenant, event) : undefined,
      );
      track(state.inFlight, delivery);
    };
    return (raised) => {
      // Numbered now, in the order handlers raise events, so ids follow the seed deterministically.
      const id = raised.id ?? tenant.ids.hex(32);
      const { id: _fixed, ...shape } = raised;
      const event: EventRecord = {
        id,
        created_at: new Date(tenant.clock.now()).toISOString(),
        status: 'pending',
        payload: toPayload(id, shape),
        attempts: [],
      };
      const logged = track(state.logWrites, logEvent(tenant, event));
      track(
        state.inFlight,
        logged.then((prepared) => (prepared ? sendAttempt(context, tenant, prepared) : undefined)),
      );
      // Awaited by a job (its event must be logged before it is done); a handler that does not await it
      // leaves its failure to the tracked work above, which reports it.
      const done = logged.then(() => undefined);
      done.catch(() => undefined);
      return done;
    };
  }

  return {
    emitterFor,
    idle: (tenant) => {
      const waited = tenant ? [webhookState(tenant)] : [...states];
      return settled(...waited.flatMap((state) => [state.logWrites, state.inFlight]));
    },
    close: async () => {
      if (agent) await (await agent).close();
    },
  };
}
