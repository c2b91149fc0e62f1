/**
 * The spec's client retry rules. CLIENT-RETRY-5XX: a 50x is retried with exponential backoff, base 3 s,
 * factor 2, at most five retries (3, 6, 12, 24, 48 s). CLIENT-NO-RETRY-4XX: a 40x is not retried.
 * CLIENT-TOO-MANY-SESSIONS: the Too Many Sessions error is retried like a 50x.
 */

/** Waits before retry 1..5, in seconds (CLIENT-RETRY-5XX). */
export const RETRY_WAITS_SECONDS = [3, 6, 12, 24, 48] as const;

/** The error code of Too Many Sessions (choice: the spec names the error, not its code). */
export const TOO_MANY_SESSIONS_CODE = 'too_many_sessions';

/** True when the error array names the Too Many Sessions error. */
export function isTooManySessions(body: unknown): boolean {
  return Array.isArray(body) && body.some((item) => item?.code === TOO_MANY_SESSIONS_CODE);
}

/**
 * The wait in seconds before retrying, or undefined when the answer must not be retried.
 * `retriesSoFar` counts the retries already made (0 after the first attempt).
 */
export function retryWaitSeconds(status: number, body: unknown, retriesSoFar: number): number | undefined {
  if (retriesSoFar >= RETRY_WAITS_SECONDS.length) return undefined;
  const retryable = (status >= 500 && status <= 599) || isTooManySessions(body);
  return retryable ? RETRY_WAITS_SECONDS[retriesSoFar] : undefined;
}
