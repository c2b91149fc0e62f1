/**
 * One delivery attempt with undici: an HTTP POST of the JSON payload (WEBHOOK-SHAPE) with the bearer
 * token when configured (WEBHOOK-BEARER), bounded by a time-out, to a destination the simulator may
 * call (destinations.ts: a literal address is checked here, a name by the connection's lookup), never
 * following a redirect. It never throws: a refusal, a refused connection or a time-out is an outcome
 * like a status (WEBHOOK-RETRY decides what follows), told coarsely: the log never holds a socket's
 * error text, which would make the event log a port scanner.
 */
import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { type DestinationCheck, REFUSAL, REFUSED_CODE } from './destinations.js';
import type { WebhookPayload } from './event-log.js';

export interface DeliveryTarget {
  url: string;
  bearerToken: string | null;
}

export interface DeliveryOptions {
  /** The connection pool (made on the first delivery); undici's global one when absent. */
  dispatcher?: () => Promise<Dispatcher>;
  /** Time-out of one attempt, from connecting to the end of the answer (network time). */
  timeoutMs: number;
  /** Where deliveries may go; the dispatcher's connections use its lookup. Default: anywhere. */
  destinations?: DestinationCheck;
}

export interface AttemptOutcome {
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** Why no answer came, coarsely (FAILURES): the destination refused, timed out, no answer; null when one came. */
  error: string | null;
}

/** The outcomes without an answer, as the event log, the judge and the console say them. */
export const FAILURES = {
  refused: REFUSAL,
  timedOut: 'timed out',
  failed: 'no answer (the connection failed or closed)',
} as const;

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The codes of an error and of its causes (undici wraps the connection's error). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error as { code?: string; name?: string; cause?: unknown } | undefined; current; ) {
    if (current.code) codes.push(current.code);
    if (current.name === 'TimeoutError') codes.push('TimeoutError');
    current = current.cause as typeof current;
  }
  return codes;
}

function describeFailure(error: unknown): string {
  const codes = codesOf(error);
  if (codes.includes(REFUSED_CODE)) return FAILURES.refused;
  if (codes.some((code) => code === 'TimeoutError' || TIMEOUT_CODES.has(code))) return FAILURES.timedOut;
  return FAILURES.failed;
}

/** A URL naming an address the destinations refuse (a name is checked by the connection's lookup). */
function refusedLiteral(url: string, destinations: DestinationCheck | undefined): boolean {
  if (!destinations?.restricted) return false;
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return isIP(hostname) !== 0 && !destinations.allows(hostname, hostname);
}

/** A 2xx acknowledges the event (WEBHOOK-RETRY). */
export const acknowledged = (outcome: AttemptOutcome) =>
  outcome.status !== null && outcome.status >= 200 && outcome.status < 300;

/** One attempt's POST; the simulator's assembly may wrap it (a receiver-facing stage). */
export type PostWebhook = (
  target: DeliveryTarget,
  payload: WebhookPayload,
  options: DeliveryOptions,
) => Promise<AttemptOutcome>;

export async function postWebhook(
  target: DeliveryTarget,
  payload: WebhookPayload,
  options: DeliveryOptions,
): Promise<AttemptOutcome> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (target.bearerToken !== null) headers.authorization = `Bearer ${target.bearerToken}`;
  if (refusedLiteral(target.url, options.destinations)) return { status: null, error: FAILURES.refused };
  try {
    // undici loads on the first delivery, not with the simulator: most runs never send a webhook.
    const { request } = await import('undici');
    const dispatcher = await options.dispatcher?.();
    const response = await request(target.url, {
      method: 'POST',
      headers,
      body: JSON.stringify(payload),
      ...(dispatcher && { dispatcher }),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      // The whole attempt, to the millisecond (undici's own time-outs tick coarsely).
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    await response.body.dump();
    return { status: response.statusCode, error: null };
  } catch (error) {
    return { status: null, error: describeFailure(error) };
  }
}
