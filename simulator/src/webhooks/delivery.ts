/**
 * One delivery attempt with undici: an HTTP POST of the JSON payload (WEBHOOK-SHAPE) with the bearer
 * token when configured (WEBHOOK-BEARER), bounded by a time-out. It never throws: a refused
 * connection or a time-out is an outcome like a status (WEBHOOK-RETRY decides what follows).
 */
import type { Dispatcher } from 'undici';
import type { WebhookPayload } from './event-log.js';

export interface DeliveryTarget {
  url: string;
  bearerToken: string | null;
  /** Headers a situation adds (a forward-compatibility storm's mark). */
  headers?: Readonly<Record<string, string>>;
}

export interface DeliveryOptions {
  /** The connection pool (made on the first delivery); undici's global one when absent. */
  dispatcher?: () => Promise<Dispatcher>;
  /** Time-out of one attempt, from connecting to the end of the answer (network time). */
  timeoutMs: number;
}

export interface AttemptOutcome {
  /** The receiver's HTTP status, or null when no answer came. */
  status: number | null;
  /** Why no answer came; null when one came. */
  error: string | null;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function describeFailure(error: unknown, timeoutMs: number): string {
  const { code, name, message } = error as { code?: string; name?: string; message?: string };
  if (name === 'TimeoutError' || (code !== undefined && TIMEOUT_CODES.has(code))) {
    return `timed out after ${timeoutMs} ms`;
  }
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection closed without an answer';
  return `${code ? `${code}: ` : ''}${message ?? String(error)}`;
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
  const headers: Record<string, string> = { ...target.headers, 'content-type': 'application/json' };
  if (target.bearerToken !== null) headers.authorization = `Bearer ${target.bearerToken}`;
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
    return { status: null, error: describeFailure(error, options.timeoutMs) };
  }
}
