/**
 * What the webhook machinery keeps per tenant outside the store: the defaults the command line gave,
 * the event sequence, the work in flight (so tests can await it) and the daily refresh's schedule.
 * Everything a client can see (configuration, event log) lives in the store.
 */
import { type TenantRuntime, tenantSlot } from '../core/tenant.js';
import { isStoreFailure } from '../store/store-failure.js';
import type { DestinationCheck } from './destinations.js';

/** The receiver every tenant starts with (`ofkit simulate --webhook-url --webhook-bearer`). */
export interface WebhookDefaults {
  readonly url: string | null;
  readonly bearer_token: string | null;
}

export interface TenantWebhookState {
  defaults: WebhookDefaults;
  /** Event-log writes not yet in the store; the event list waits for them. */
  readonly logWrites: Set<Promise<unknown>>;
  /** Writes and deliveries in flight; `idle()` waits for them. */
  readonly inFlight: Set<Promise<unknown>>;
  /**
   * WEBHOOK-RETRY: the attempts this process is sending, by event id. A repetition that falls due while
   * the attempt before it is still waiting for its answer (the virtual clock jumped past it) waits for
   * that answer first: a 2xx settles the event and nothing is repeated.
   */
  readonly sending: Map<string, Promise<unknown>>;
  /** WEBHOOK-DAILY: whether this process listens to the tenant clock's resets (daily-schedule.ts). */
  readonly daily: { listening: boolean };
  /** The tenant's daily refresh running in this process, if any: the next one waits for it. */
  refreshTurn: Promise<unknown>;
  /** Starts a new delivery of a logged event (`POST /_ofkit/events/{id}/resend/`); set by the emitter. */
  resend?: (eventId: string) => void;
  /** Where this simulator's deliveries may go (the configuration's check); set by the emitter. */
  destinations?: DestinationCheck;
  /**
   * One POST of the judge's probes through the same checked connections; set by the emitter
   * (delivery.ts's target, payload and outcome, named here by their shape).
   */
  probe?: (
    target: { url: string; bearerToken: string | null },
    payload: object,
  ) => Promise<{ status: number | null; error: string | null }>;
}

export const NO_RECEIVER: WebhookDefaults = Object.freeze({ url: null, bearer_token: null });

/** The webhook machinery's slot of each tenant (core/tenant.ts). */
const WEBHOOK_STATE = tenantSlot(
  'webhooks',
  (): TenantWebhookState => ({
    defaults: NO_RECEIVER,
    logWrites: new Set(),
    inFlight: new Set(),
    sending: new Map(),
    daily: { listening: false },
    refreshTurn: Promise.resolve(),
  }),
);

/** The tenant's webhook state, created on first use. */
export const webhookState = (tenant: TenantRuntime): TenantWebhookState => tenant.local(WEBHOOK_STATE);

/**
 * Keeps `promise` in `set` until it settles. A rejection by the store (unreachable, or silent past its
 * time-out: the store reports it) ends that background work without ending the process; any other (a
 * programmer mistake) stays loud.
 */
export function track<T>(set: Set<Promise<unknown>>, promise: Promise<T>): Promise<T> {
  const tracked = promise.finally(() => {
    set.delete(tracked);
  });
  set.add(tracked);
  tracked.catch((error: unknown) => {
    if (!isStoreFailure(error)) throw error;
  });
  return tracked;
}

/** Resolves when `sets` hold nothing, including work started while waiting. */
export async function settled(...sets: Set<Promise<unknown>>[]): Promise<void> {
  for (;;) {
    const pending = sets.flatMap((set) => [...set]);
    if (pending.length === 0) return;
    await Promise.all(pending);
  }
}
