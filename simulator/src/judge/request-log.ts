/**
 * The tenant's observation log (admin.yaml `RequestLogEntry`): every API request with its outcome and
 * every webhook delivery with the receiver's answer, in one sequence so the judge knows what came
 * first. Bounded in memory: the oldest entries go first once a tenant holds `MAX_REQUESTS` requests or
 * `MAX_DELIVERIES` deliveries, and `dropped` counts them. Nothing here is a credential
 * (CLIENT-NO-SECRETS applies to us too): bodies are kept masked, the Authorization header never.
 */
import type { components } from '../../../openapi/generated/admin.js';
import type { TenantRuntime } from '../core/tenant.js';

type AdminSchemas = components['schemas'];

/**
 * Requests kept per tenant: the log grows to 5500 and is then trimmed to the latest 5000. An entry is
 * about 0.5 KB, at most about 2.5 KB (the masked body is cut at 2000 characters): under 14 MB a tenant.
 */
export const MAX_REQUESTS = 5000;
/** Webhook deliveries kept per tenant. */
export const MAX_DELIVERIES = 1000;

/** One request as `GET /_ofkit/requests/` shows it (admin.yaml, the contract with the dashboard). */
export type RequestLogEntry = AdminSchemas['RequestLogEntry'];

/** What the judge reads besides the public members: times as numbers and facts taken from the bodies. */
export interface ObservedRequest {
  entry: RequestLogEntry;
  atMs: number;
  realMs: number;
  /** LINK-MFA-428: the 428's session, its end on the tenant's clock and its link. */
  mfa?: { session: string; expiresAtMs: number; link: string | null };
  /** The body's `session` and `link` (a resume after a 428). */
  resume?: { session: string; link: string | null };
  /** A list page's `next`, and whether the page held no record. */
  page?: { next: string | null; empty: boolean; count: number };
  /** CLIENT-NO-SECRETS: where a key id or secret was seen (path, query, body). */
  secretsIn: string[];
}

/** One webhook delivery attempt (from the emitter) or a judge probe, with the receiver's answer. */
export interface ObservedDelivery {
  seq: number;
  at: string;
  kind: 'delivery' | 'duplicate' | 'forged';
  webhook_id: string | null;
  webhook_type: string;
  webhook_code: string;
  link_id: string | null;
  data: Record<string, unknown>;
  attempt: number;
  status: number | null;
  error: string | null;
  duration_ms: number;
}

export interface TenantObservations {
  sequence: number;
  requests: ObservedRequest[];
  deliveries: ObservedDelivery[];
  dropped: number;
}

const observations = new WeakMap<TenantRuntime, TenantObservations>();

/** The tenant's observations, created on first use. */
export function observationsOf(tenant: TenantRuntime): TenantObservations {
  let found = observations.get(tenant);
  if (!found) {
    found = { sequence: 0, requests: [], deliveries: [], dropped: 0 };
    observations.set(tenant, found);
  }
  return found;
}

/** Forgets everything (resetTenant). */
export function clearObservations(tenant: TenantRuntime): void {
  observations.set(tenant, { sequence: 0, requests: [], deliveries: [], dropped: 0 });
}

export function nextSeq(log: TenantObservations): number {
  log.sequence += 1;
  return log.sequence;
}

export function appendRequest(log: TenantObservations, request: ObservedRequest): void {
  log.requests.push(request);
  // Dropping in chunks keeps the append O(1) amortised (a shift per request would copy 5000 each time).
  if (log.requests.length > MAX_REQUESTS + MAX_REQUESTS / 10) {
    const excess = log.requests.length - MAX_REQUESTS;
    log.requests.splice(0, excess);
    log.dropped += excess;
  }
}

export function appendDelivery(log: TenantObservations, delivery: ObservedDelivery): void {
  log.deliveries.push(delivery);
  if (log.deliveries.length > MAX_DELIVERIES)
    log.deliveries.splice(0, log.deliveries.length - MAX_DELIVERIES);
}

/** `GET /_ofkit/requests/?after=&limit=`: entries after `after`, oldest first. */
export function readRequests(log: TenantObservations, after: number, limit: number) {
  const requests = log.requests.filter((r) => r.entry.seq > after).slice(0, limit);
  const last = requests.at(-1)?.entry.seq ?? Math.max(after, 0);
  return { requests: requests.map((r) => r.entry), next_after: last, dropped: log.dropped };
}
