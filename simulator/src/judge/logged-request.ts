/**
 * A request as the log keeps it: the least the judge and `GET /_ofkit/requests/` need, masked when it
 * was taken (observe-request.ts), times as numbers. The curl line and the ISO times are built only when
 * the log is read.
 */
import { shellQuote } from '../../../openapi/security/shell-quote.js';
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
  /** The body, masked, at most 2000 characters (only when the request had one it could read). */
  body?: string;
  /** The body is a form (`name=value&...`), not JSON. */
  bodyForm?: true;
  /** A body neither JSON nor a form is not kept: its length (its sha256 is `sha256`). */
  bodyBytes?: number;
  mfa?: ObservedRequest['mfa'];
  resume?: ObservedRequest['resume'];
  page?: ObservedRequest['page'];
  /** CLIENT-NO-SECRETS: where the key id or secret showed (only when it did). */
  secrets?: string[];
}

/**
 * The stored form of a LoggedRequest: its members in this order in a JSON array, trailing absent ones
 * left out, so no entry repeats the member names (a third of a small entry) and writing it is quicker.
 */
type LoggedRow = [
  LoggedRequest['method'],
  LoggedRequest['origin'],
  LoggedRequest['path'],
  LoggedRequest['query'],
  LoggedRequest['operation'],
  LoggedRequest['sha256'],
  LoggedRequest['status'],
  LoggedRequest['code'],
  LoggedRequest['rule'],
  LoggedRequest['detail'],
  LoggedRequest['at'],
  LoggedRequest['realAt'],
  LoggedRequest['durationMs'],
  LoggedRequest['headers'] | null,
  LoggedRequest['body'] | null,
  LoggedRequest['mfa'] | null,
  LoggedRequest['resume'] | null,
  LoggedRequest['page'] | null,
  LoggedRequest['secrets'] | null,
  LoggedRequest['bodyForm'] | null,
  LoggedRequest['bodyBytes'] | null,
];

/** The row the store keeps of `logged`. */
export function loggedRow(logged: LoggedRequest): unknown[] {
  const row: unknown[] = [
    logged.method,
    logged.origin,
    logged.path,
    logged.query,
    logged.operation,
    logged.sha256,
    logged.status,
    logged.code,
    logged.rule,
    logged.detail,
    logged.at,
    logged.realAt,
    logged.durationMs,
    logged.headers ?? null,
    logged.body ?? null,
    logged.mfa ?? null,
    logged.resume ?? null,
    logged.page ?? null,
    logged.secrets ?? null,
    logged.bodyForm ?? null,
    logged.bodyBytes ?? null,
  ];
  while (row.at(-1) === null) row.pop();
  return row;
}

/** The LoggedRequest a stored row holds. */
export function fromRow(stored: unknown[]): LoggedRequest {
  // Trailing absent members are left out of the row.
  const row = stored as Partial<LoggedRow>;
  const logged: LoggedRequest = {
    method: row[0]!,
    origin: row[1]!,
    path: row[2]!,
    query: row[3]!,
    operation: row[4]!,
    sha256: row[5]!,
    status: row[6]!,
    code: row[7]!,
    rule: row[8]!,
    detail: row[9]!,
    at: row[10]!,
    realAt: row[11]!,
    durationMs: row[12]!,
  };
  if (row[13] != null) logged.headers = row[13];
  if (row[14] != null) logged.body = row[14];
  if (row[15] != null) logged.mfa = row[15];
  if (row[16] != null) logged.resume = row[16];
  if (row[17] != null) logged.page = row[17];
  if (row[18] != null) logged.secrets = row[18];
  if (row[19] != null) logged.bodyForm = row[19];
  if (row[20] != null) logged.bodyBytes = row[20];
  return logged;
}

/** The curl line's credentials: placeholders, never the key (CLIENT-NO-SECRETS). */
export const MASKED_KEY = '$OFKIT_KEY';
export const MASKED_SECRET = '$OFKIT_SECRET';

/** Node's parser admits only the methods it knows (upper-case letters and `-`): a bare word. */
const METHOD = /^[A-Z-]+$/;

/** The request as a curl line a person pastes: every value shell-quoted, so that it runs only itself. */
function curlLine(logged: LoggedRequest): string {
  const url = `${logged.origin}${logged.path}${logged.query ? `?${logged.query}` : ''}`;
  const method = METHOD.test(logged.method) ? logged.method : shellQuote(logged.method);
  const parts = [`curl -u ${MASKED_KEY}:${MASKED_SECRET} -X ${method} ${shellQuote(url)}`];
  for (const [name, value] of logged.headers ?? []) parts.push(`-H ${shellQuote(`${name}: ${value}`)}`);
  if (logged.body !== undefined) {
    const type = logged.bodyForm ? 'application/x-www-form-urlencoded' : 'application/json';
    parts.push(`-H ${shellQuote(`content-type: ${type}`)} --data-raw ${shellQuote(logged.body)}`);
  }
  // A comment to the end of the line: the digest names what was sent without holding it.
  if (logged.bodyBytes !== undefined)
    parts.push(
      `# a body of ${logged.bodyBytes} bytes, neither JSON nor a form, was not kept (sha256 ${logged.sha256})`,
    );
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
