/**
 * A request as the log keeps it: the least the judge and `GET /_ofkit/requests/` need, masked when it
 * was taken (observe-request.ts), times as numbers. The curl line and the ISO times are built only when
 * the log is read.
 */
import type { ObservedRequest } from './request-log.js';

export interface LoggedRequest {
  method: string;
  /** The base URL the client used (the curl line's). */
  origin: string;
  /** Masked (CLIENT-NO-SECRETS). */
  path: string;
  /** The query string, masked; "" if none. */
  query: string;
  operation: string | null;
  sha256: string | null;
  status: number;
  code: string | null;
  rule: string | null;
  /** The first error's message, masked, at most 200 characters. */
  detail: string | null;
  /** The tenant's clock when the request was answered, in ms. */
  at: number;
  /** The machine's time when the request came, in ms. */
  realAt: number;
  durationMs: number;
  /** The request's `x-service-*` headers, in their order (the curl line shows them). */
  headers?: [string, string][];
  /** The body, masked, at most 2000 characters (only when the request had one). */
  body?: string;
  mfa?: ObservedRequest['mfa'];
  resume?: ObservedRequest['resume'];
  page?: ObservedRequest['page'];
  /** CLIENT-NO-SECRETS: where the key id or secret showed (only when it did). */
  secrets?: string[];
}

/** The curl line's credentials: placeholders, never the key (CLIENT-NO-SECRETS). */
export const MASKED_KEY = '$OFKIT_KEY';
export const MASKED_SECRET = '$OFKIT_SECRET';

function curlLine(logged: LoggedRequest): string {
  const url = `${logged.origin}${logged.path}${logged.query ? `?${logged.query}` : ''}`;
  const parts = [`curl -u ${MASKED_KEY}:${MASKED_SECRET} -X ${logged.method} '${url}'`];
  for (const [name, value] of logged.headers ?? []) parts.push(`-H '${name}: ${value}'`);
  if (logged.body !== undefined)
    parts.push(`-H 'content-type: application/json' -d '${logged.body.replaceAll("'", "'\\''")}'`);
  return parts.join(' ');
}

/** The request numbered `seq` as the judge reads it, with its public entry. */
export function observedRequest(seq: number, logged: LoggedRequest): ObservedRequest {
  return {
    entry: {
      seq,
      at: new Date(logged.at).toISOString(),
      real_at: new Date(logged.realAt).toISOString(),
      method: logged.method,
      path: logged.path,
      query: logged.query,
      operation_id: logged.operation,
      body_sha256: logged.sha256,
      status: logged.status,
      error_code: logged.code,
      rule: logged.rule,
      detail: logged.detail,
      duration_ms: logged.durationMs,
      curl: curlLine(logged),
    },
    atMs: logged.at,
    realMs: logged.realAt,
    ...(logged.mfa && { mfa: logged.mfa }),
    ...(logged.resume && { resume: logged.resume }),
    ...(logged.page && { page: logged.page }),
    secretsIn: logged.secrets ?? [],
  };
}
