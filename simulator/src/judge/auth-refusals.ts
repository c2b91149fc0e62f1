/**
 * CLIENT-NO-RETRY-4XX for requests refused for authentication (AUTH-BASIC, 401): they have no tenant,
 * so they never enter a tenant's request log; when the Basic user names a key of this simulator, the
 * same request's refusals are counted for that key here instead. Not in the log, so that a stranger
 * who knows a key id (ids are not secret) cannot flush the tenant's evidence by sending refused
 * requests under it; bounded, and when full the entry refused the fewest times goes, so one-off
 * refusals never push out a request a client keeps resending. Kept in this process (a replica counts
 * the refusals it answered).
 */
import { tenantSlot } from '../core/tenant.js';

/** One request refused for authentication, as often as it was sent. */
export interface AuthRefusal {
  /** The request as a curl line, its credentials masked. */
  curl: string;
  count: number;
  /** The tenant's clock at the first and the last refusal, ISO. */
  first_at: string;
  last_at: string;
  /** The last refusal's `request_id` (CLIENT-REQUEST-IDS-LOGGED). */
  request_id: string | null;
}

/** Distinct refused requests kept per key. */
export const REFUSALS_KEPT = 32;

export class AuthRefusals {
  readonly #byRequest = new Map<string, AuthRefusal>();

  /** Counts one refusal of the request `key` (method, path and query: a refused body is not read). */
  count(key: string, curl: string, at: string, requestId: string | null): void {
    const known = this.#byRequest.get(key);
    if (known) {
      known.count += 1;
      known.last_at = at;
      known.request_id = requestId;
      return;
    }
    if (this.#byRequest.size >= REFUSALS_KEPT) this.#forgetLeastRefused();
    this.#byRequest.set(key, { curl, count: 1, first_at: at, last_at: at, request_id: requestId });
  }

  #forgetLeastRefused(): void {
    let least: [string, AuthRefusal] | undefined;
    // Insertion order: of equal counts the oldest goes first.
    for (const entry of this.#byRequest) if (!least || entry[1].count < least[1].count) least = entry;
    if (least) this.#byRequest.delete(least[0]);
  }

  /** The refusals counted, oldest first (copies: the judge only reads them). */
  list(): AuthRefusal[] {
    return [...this.#byRequest.values()].map((refusal) => ({ ...refusal }));
  }

  clear(): void {
    this.#byRequest.clear();
  }
}

/** The refusals counted for a tenant's key, in this process. */
export const AUTH_REFUSALS = tenantSlot('judge:auth-refusals', () => new AuthRefusals());
