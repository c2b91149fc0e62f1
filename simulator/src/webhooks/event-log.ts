/**
 * The tenant's event log (admin.yaml `EventRecord`, `DeliveryAttempt`), kept in the store under
 * `_ofkit/events` so the control API's reset and snapshot cover it. One record per event, with its
 * payload and every delivery attempt; `link` indexes it, `_seq` orders it (oldest first).
 */

import type { TenantRuntime } from '../core/tenant.js';
import type { StoredRecord } from '../store/store.js';
import { settled, track, webhookState } from './webhook-state.js';

export const EVENTS_COLLECTION = '_ofkit/events';

export type EventStatus = 'recorded' | 'pending' | 'delivered' | 'failed';

/** WEBHOOK-SHAPE: the body POSTed to the receiver. */
export interface WebhookPayload {
  webhook_id?: string;
  webhook_type: string;
  webhook_code: string;
  link_id: string | null;
  data: Record<string, unknown>;
}

export interface DeliveryAttempt {
  at: string;
  /** The receiver's HTTP status; null when no answer came. */
  status: number | null;
  /** Why no answer came (refused, timed out...); null when one came. */
  error: string | null;
  duration_ms: number;
}

export interface EventRecord {
  id: string;
  created_at: string;
  status: EventStatus;
  payload: WebhookPayload;
  attempts: DeliveryAttempt[];
  /** A delivery held back (held-deliveries.ts): when its first attempt is released, ISO. */
  held_until?: string;
  /** A forward-compatibility storm's event (situations/): its deliveries carry the storm's header. */
  storm?: true;
}

export interface EventFilter {
  link?: string;
  webhook_type?: string;
  webhook_code?: string;
}

/** `_version` counts the record's writes: a change is a compare-and-set on it (replicas race on attempts). */
const toStored = (event: EventRecord, sequence: number, version: number): StoredRecord => ({
  ...event,
  link: event.payload.link_id,
  _seq: sequence,
  _version: version,
});

const versionOf = (stored: StoredRecord): number | null =>
  typeof stored._version === 'number' ? stored._version : null;

function toEvent(record: StoredRecord): EventRecord {
  const { id, created_at, status, payload, attempts, held_until, storm } = record as unknown as EventRecord;
  return {
    id,
    created_at,
    status,
    payload,
    attempts,
    ...(held_until !== undefined && { held_until }),
    ...(storm === true && { storm }),
  };
}

/**
 * Adds an event to the log, unless an event of its id is there already (a job that ran again raised
 * it again); resolves to the event as logged. The write is tracked so the event list never misses it.
 */
export function appendEvent(tenant: TenantRuntime, event: EventRecord): Promise<EventRecord> {
  // The store numbers events (one counter for every replica); called in the order events are raised,
  // the numbers follow that order.
  const write = tenant.store.nextSequence('events').then(async (sequence) => {
    const when = { field: 'id', equals: null };
    const { put, before } = await tenant.store.putIf(EVENTS_COLLECTION, toStored(event, sequence, 1), when);
    return put || !before ? event : toEvent(before);
  });
  return track(webhookState(tenant).logWrites, write);
}

/**
 * Appends one delivery attempt and sets the event's status, as one compare-and-set (two attempts of
 * one event ending at once, on two replicas, are both kept); a delivered event stays delivered. False
 * when the event is gone (a reset).
 */
export async function recordAttempt(
  tenant: TenantRuntime,
  id: string,
  attempt: DeliveryAttempt,
  status: EventStatus,
): Promise<boolean> {
  for (;;) {
    const stored = await tenant.store.get(EVENTS_COLLECTION, id);
    if (!stored) return false;
    const event = toEvent(stored);
    const settled = event.status === 'delivered' ? event.status : status;
    const updated = { ...event, status: settled, attempts: [...event.attempts, attempt] };
    const version = versionOf(stored);
    const record = toStored(updated, stored._seq as number, (version ?? 0) + 1);
    const write = tenant.store.putIf(EVENTS_COLLECTION, record, { field: '_version', equals: version });
    if ((await track(webhookState(tenant).logWrites, write)).put) return true;
  }
}

/** The tenant's events, oldest first, filtered by link, type and code. */
export async function listEvents(tenant: TenantRuntime, filter: EventFilter = {}): Promise<EventRecord[]> {
  await settled(webhookState(tenant).logWrites);
  const where = filter.link === undefined ? {} : { link: filter.link };
  const stored = await tenant.store.list(EVENTS_COLLECTION, where);
  return [...stored]
    .sort((a, b) => (a._seq as number) - (b._seq as number))
    .map(toEvent)
    .filter(
      (event) =>
        (filter.webhook_type === undefined || event.payload.webhook_type === filter.webhook_type) &&
        (filter.webhook_code === undefined || event.payload.webhook_code === filter.webhook_code),
    );
}

/** One event of the log, or undefined. */
export async function findEvent(tenant: TenantRuntime, id: string): Promise<EventRecord | undefined> {
  await settled(webhookState(tenant).logWrites);
  const stored = await tenant.store.get(EVENTS_COLLECTION, id);
  return stored ? toEvent(stored) : undefined;
}
