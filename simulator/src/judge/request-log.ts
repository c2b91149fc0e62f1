/**
 * The tenant's observations as the judge reads them (admin.yaml `RequestLogEntry`): every API request
 * with its outcome and every webhook delivery with the receiver's answer, in one numbering so the judge
 * knows what came first. They live in the store (judge-log.ts), bounded: the oldest entries go once a
 * tenant holds `MAX_REQUESTS` requests or `MAX_DELIVERIES` deliveries, or their size bound, and
 * `dropped` counts them. Nothing here is a credential (CLIENT-NO-SECRETS applies to us too): bodies
 * are kept masked, the Authorization header never.
 */
import type { components } from '../../../openapi/generated/admin.js';
import type { LogBounds } from '../store/store.js';

type AdminSchemas = components['schemas'];

/** Requests kept per tenant. */
export const MAX_REQUESTS = 5000;
/** Webhook deliveries kept per tenant. */
export const MAX_DELIVERIES = 1000;

/**
 * The logs' sizes, in characters of the stored entries (bytes on Redis), so that a tenant's log stays
 * under 14 MB whatever its requests (V8 keeps a JSON text of n characters in about 1.12 n bytes). An
 * entry is about 0.3 KB, about 2.6 KB with a body (the masked body is cut at 2000 characters), up to
 * 19 KB with a 16 KB request line: the latest 5000 requests fit unless they are large (about 4200 with
 * 2000-character bodies, about 600 with the longest URLs).
 */
export const REQUEST_LOG_BOUNDS: LogBounds = Object.freeze({ entries: MAX_REQUESTS, size: 11_000_000 });
export const DELIVERY_LOG_BOUNDS: LogBounds = Object.freeze({ entries: MAX_DELIVERIES, size: 1_000_000 });

/** The store's names of the logs: requests, deliveries, and where the tenant was reset. */
export const REQUEST_LOG = 'judge:requests';
export const DELIVERY_LOG = 'judge:deliveries';
export const RESET_LOG = 'judge:resets';
/** A reset's mark is its number alone (an entry of `0`). */
export const RESET_LOG_BOUNDS: LogBounds = Object.freeze({ entries: 5000, size: 50_000 });

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
  /** CLIENT-NO-SECRETS: where a key id, secret or link password was seen (path, query, body, `header NAME`). */
  secretsIn: string[];
  /** The link the request concerns (its path, the body's `link`, the query's). */
  link?: string;
  /** A registration's end-user at its institution, as a digest (link-facts.ts). */
  registrant?: string;
  /** The status the answer showed a link in. */
  linkStatus?: { id: string; status: string };
  /** The first error's `request_id`. */
  requestId?: string;
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
  /**
   * The machine's time the attempt was sent: a receiver that acknowledges and reads at once has its
   * read logged before the attempt's answer is (CLIENT-WEBHOOK-FOLLOW-UP counts such a read).
   */
  sent_real_ms?: number;
}

/** A delivery as the store keeps it: its number is the store's. */
export type LoggedDelivery = Omit<ObservedDelivery, 'seq'>;

/** A tenant's observations, read from the store when the judge or the log is read. */
export interface TenantObservations {
  requests: ObservedRequest[];
  deliveries: ObservedDelivery[];
  /** Requests the bounds evicted. */
  dropped: number;
  /** The numbers of the resets (and snapshot imports): each starts a part the judge judges on its own. */
  resets: number[];
}

/** `GET /_ofkit/requests/`: `next_after` is the last entry's number, or `after` when there is none. */
export function requestLogPage(requests: RequestLogEntry[], after: number, dropped: number) {
  const last = requests.at(-1)?.seq ?? Math.max(after, 0);
  return { requests, next_after: last, dropped };
}
