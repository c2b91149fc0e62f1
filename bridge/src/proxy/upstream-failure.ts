/**
 * When the implementation cannot be reached, the client still gets the API's error body (ERR-BODY's
 * array of `{request_id, message, code}`), with a code that says the proxy answered: unreachable or
 * refused (502 `proxy_upstream_unreachable`), a TLS failure (502 `proxy_upstream_tls`), no answer in
 * time (504 `proxy_upstream_timeout`).
 */
import type { UpstreamFailure } from '../exchange/exchange.js';

export interface UpstreamFailureAnswer {
  status: number;
  failure: UpstreamFailure;
}

const TIMEOUTS = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);
const TLS = /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|ALTNAME/;

/** The code of an error and of its causes (undici wraps the socket's). */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (
    let current = error as { code?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 5;
    depth++
  ) {
    if (typeof current.code === 'string') codes.push(current.code);
    current = current.cause as typeof current;
  }
  return codes;
}

function detailOf(error: unknown): string {
  const messages: string[] = [];
  for (
    let current = error as { message?: unknown; cause?: unknown } | undefined, depth = 0;
    current && depth < 5;
    depth++
  ) {
    if (typeof current.message === 'string' && current.message !== '' && !messages.includes(current.message))
      messages.push(current.message);
    current = current.cause as typeof current;
  }
  return messages.join(': ') || String(error);
}

/** What the proxy answers for an error that reaching `upstream` ended with. */
export function upstreamFailureOf(error: unknown, upstream: string): UpstreamFailureAnswer {
  const codes = codesOf(error);
  const code = codes.find((c) => c !== 'UND_ERR_SOCKET') ?? codes[0] ?? 'unknown';
  const detail = `${detailOf(error)} (${code})`;
  if (codes.some((c) => TIMEOUTS.has(c)))
    return {
      status: 504,
      failure: {
        code: 'proxy_upstream_timeout',
        message: `The API at ${upstream} did not answer in time: ${detail}.`,
      },
    };
  if (codes.some((c) => TLS.test(c)))
    return {
      status: 502,
      failure: {
        code: 'proxy_upstream_tls',
        message: `The TLS connection to ${upstream} failed: ${detail}.`,
      },
    };
  return {
    status: 502,
    failure: {
      code: 'proxy_upstream_unreachable',
      message: `The API at ${upstream} cannot be reached: ${detail}.`,
    },
  };
}

/** The error array the client gets. */
export function failureBody(answer: UpstreamFailureAnswer, requestId: string): string {
  return JSON.stringify([
    { request_id: requestId, message: answer.failure.message, code: answer.failure.code },
  ]);
}
