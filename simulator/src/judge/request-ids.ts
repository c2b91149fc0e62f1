/**
 * CLIENT-REQUEST-IDS-LOGGED, decided from the client's own output (what `ofkit golive` captures of its
 * command and reads of its `--client-log`), never from traffic alone: each failed request the client
 * could not leave behind has its `request_id` (ERR-BODY: "unique request id to quote to support") in
 * that output. Which failures: every 5xx, 408 or Too Many Sessions error not followed by a successful
 * retry of the same request, and every other 4xx but 428 (a pause, resumed), 409 (a cooldown, waited)
 * and 429 (a window, waited). A miss is a warning: the output may log it in a form the judge cannot
 * match (a file the command was not told about, a log service).
 */
import type { AuthRefusal } from './auth-refusals.js';
import { type Judgement, judgement, notExercised } from './client-rules.js';
import type { ObservedRequest } from './request-log.js';

/** 4xx answers that are steps of a conversation the client completes, not failures to quote. */
const CONVERSATION = new Set([428, 409, 429]);

/**
 * ofkit's own lines in a captured output (the judge's summary and evidence, `ofkit` commands' messages):
 * a request id there was not logged by the client.
 */
export function isOfkitLine(line: string): boolean {
  return /^\s*(\[?ofkit\b|client judge\b)/i.test(line) || line.includes('$OFKIT_KEY:$OFKIT_SECRET');
}

const sameRequest = (r: ObservedRequest) =>
  `${r.entry.method} ${r.entry.path}?${r.entry.query} ${r.entry.body_sha256 ?? ''}`;
const retryable = (r: ObservedRequest) =>
  r.entry.status >= 500 || r.entry.status === 408 || r.entry.error_code === 'too_many_sessions';
const succeeded = (r: ObservedRequest) => r.entry.status < 400;

/** The failed requests whose id the client should have logged, in order. */
export function failuresToLog(requests: readonly ObservedRequest[]): ObservedRequest[] {
  const failures: ObservedRequest[] = [];
  for (const [index, r] of requests.entries()) {
    if (r.entry.status < 400 || r.requestId === undefined || CONVERSATION.has(r.entry.status)) continue;
    if (retryable(r)) {
      const key = sameRequest(r);
      const recovered = requests
        .slice(index + 1)
        .some((later) => sameRequest(later) === key && succeeded(later));
      if (recovered) continue;
    }
    failures.push(r);
  }
  return failures;
}

/** The client's lines, ofkit's own left out, as one text to search. */
function clientLines(output: string, isOwnLine: (line: string) => boolean): string {
  return output
    .split(/\r?\n/)
    .filter((line) => !isOwnLine(line))
    .join('\n');
}

/**
 * CLIENT-REQUEST-IDS-LOGGED on `output`, the client's captured output (undefined: none was captured,
 * the rule is left to `ofkit golive`); `refusals`: 401s counted per key, whose last id counts too.
 */
export function judgeRequestIdsLogged(
  output: string | undefined,
  requests: readonly ObservedRequest[],
  refusals: readonly AuthRefusal[] = [],
  isOwnLine: (line: string) => boolean = isOfkitLine,
): Judgement {
  if (output === undefined)
    return notExercised("no client output was read (ofkit golive reads the client command's output)");
  const expected = [
    ...failuresToLog(requests).map((r) => ({
      id: r.requestId!,
      line: `${r.entry.curl}   # -> ${r.entry.status}`,
    })),
    ...refusals.flatMap((r) =>
      r.request_id === null ? [] : [{ id: r.request_id, line: `${r.curl}   # -> 401` }],
    ),
  ];
  if (expected.length === 0) return notExercised('no failed request whose id the client should log');
  const text = clientLines(output, isOwnLine);
  const missing = expected.filter(({ id }) => !text.includes(id));
  if (missing.length === 0)
    return judgement(
      'followed',
      `${expected.length} failed request(s), each request_id in the client's output.`,
    );
  return judgement(
    'warning',
    `${missing.length} of ${expected.length} failed request(s) without their request_id in the client's output.`,
    missing.map(({ id, line }) => `${line}  (request_id ${id} not in the output)`),
  );
}
