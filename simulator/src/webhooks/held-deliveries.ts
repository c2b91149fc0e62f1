/**
 * Deliveries held back and interleaved (`delivery_delay_seconds`, `delivery_order` of the webhook
 * configuration; `--webhook-delay`, `--webhook-interleave`): valid behaviours of the provider, since
 * the interface promises neither when a notification arrives nor in which order (Events, configuration
 * and delivery rules). A held event is logged at once with `held_until`, so the client can read the data
 * before it hears of it; the events raised in one window of the delay are released together, at least
 * the delay after each was raised, by one job on the tenant's clock (jobs are data: any replica runs it);
 * `interleaved` sends the events of different links and resources in another order than raised, each
 * link's and resource's own events keeping theirs. Their repetitions follow WEBHOOK-RETRY as ever.
 */
import type { JobRunner } from '../core/job-kinds.js';
import type { TenantRuntime } from '../core/tenant.js';
import { type EventRecord, listEvents } from './event-log.js';
import { type DeliveryContext, deliverEvent } from './retrying-delivery.js';
import type { WebhookConfig } from './webhook-config.js';
import { track, webhookState } from './webhook-state.js';

/** The job kind that releases the held events of a window: `{}`, due at the window's release. */
export const WEBHOOK_RELEASE = 'webhook release';

/**
 * When an event raised at `at` is released: the end of the window after the one it was raised in, so
 * each event waits between one and two delays, and the events of one window go out together.
 */
export function releaseOf(at: number, delaySeconds: number): number {
  const window = delaySeconds * 1000;
  return (Math.floor(at / window) + 2) * window;
}

/** Holds `event` (not logged yet): its release instant, and the window's release job scheduled once. */
export async function holdEvent(
  tenant: TenantRuntime,
  event: EventRecord,
  config: WebhookConfig,
): Promise<EventRecord> {
  const release = releaseOf(tenant.clock.now(), config.delivery_delay_seconds);
  // One job per window (a fixed id: scheduling it again replaces it with the same job).
  await tenant.clock.schedule(release, WEBHOOK_RELEASE, {}, undefined, `webhook-release:${release}`);
  return { ...event, held_until: new Date(release).toISOString() };
}

/** The key of the events whose relative order `interleaved` keeps: one link's events of one type. */
const streamOf = (event: EventRecord) => `${event.payload.link_id} ${event.payload.webhook_type}`;

/**
 * `interleaved`: the streams (a link's events of one type) taken in the reverse order of their first
 * event, one event of each in turn; each stream keeps its own order.
 */
export function interleave(events: readonly EventRecord[]): EventRecord[] {
  const streams = new Map<string, EventRecord[]>();
  for (const event of events) {
    const stream = streams.get(streamOf(event)) ?? [];
    stream.push(event);
    streams.set(streamOf(event), stream);
  }
  const queues = [...streams.values()].reverse();
  const ordered: EventRecord[] = [];
  while (ordered.length < events.length)
    for (const queue of queues) {
      const next = queue.shift();
      if (next) ordered.push(next);
    }
  return ordered;
}

/** Sends each event's first attempt in turn, the next once the receiver answered the one before. */
async function deliverInTurn(
  context: DeliveryContext,
  tenant: TenantRuntime,
  events: readonly EventRecord[],
) {
  for (const event of events) await deliverEvent(context, tenant, event);
}

/** The release job: the held events due by now, never sent, delivered in the configured order. */
export function heldReleaseRunner(
  context: DeliveryContext,
  readConfig: (tenant: TenantRuntime) => Promise<WebhookConfig>,
): JobRunner {
  return async (tenant, _args, job) => {
    const due = (await listEvents(tenant)).filter(
      (event) =>
        event.status === 'pending' &&
        event.attempts.length === 0 &&
        event.held_until !== undefined &&
        Date.parse(event.held_until) <= job.at,
    );
    if (due.length === 0) return;
    const { delivery_order } = await readConfig(tenant);
    const ordered = delivery_order === 'interleaved' ? interleave(due) : due;
    job.keep(track(webhookState(tenant).inFlight, deliverInTurn(context, tenant, ordered)));
  };
}
