/**
 * CLIENT-RETRY-5XX, CLIENT-TOO-MANY-SESSIONS and CLIENT-NO-RETRY-4XX, judged on chains of the same
 * request (method, path, query and body digest) sent again after a failure.
 *
 * Choice: a 408 ("timed out and terminated by the server") may be retried like a 50x, with the same
 * budget and waits, but not retrying it is no violation (the spec counts it among the 40x of rule 2).
 */
import type { AuthRefusal } from './auth-refusals.js';
import { type Judgement, judgement, notExercised, type Timing } from './client-rules.js';
import type { ObservedRequest } from './request-log.js';

/** CLIENT-RETRY-5XX: waits before retry 1..5, in seconds. */
export const RETRY_WAITS_SECONDS = [3, 6, 12, 24, 48] as const;
/** A real wait is on time from 10 % (and half a second) early to 50 % (and two seconds) late. */
const EARLY = (seconds: number) => seconds * 0.9 - 0.5;
const LATE = (seconds: number) => seconds * 1.5 + 2;

type Kind = '5xx' | '408' | 'too_many_sessions';

const sameRequestKey = (r: ObservedRequest) =>
  `${r.entry.method} ${r.entry.path}?${r.entry.query} ${r.entry.body_sha256 ?? ''}`;

function retryableKind(r: ObservedRequest): Kind | undefined {
  if (r.entry.error_code === 'too_many_sessions') return 'too_many_sessions';
  if (r.entry.status >= 500 && r.entry.status <= 599) return '5xx';
  if (r.entry.status === 408) return '408';
  return undefined;
}

interface Chain {
  kind: Kind;
  attempts: ObservedRequest[];
}

/** Failures and the same request sent again while the last answer was still a retryable failure. */
function retryChains(requests: readonly ObservedRequest[]): Chain[] {
  const open = new Map<string, Chain>();
  const chains: Chain[] = [];
  for (const request of requests) {
    const key = sameRequestKey(request);
    const chain = open.get(key);
    if (chain) chain.attempts.push(request);
    const kind = retryableKind(request);
    if (!chain && kind) {
      const started = { kind, attempts: [request] };
      chains.push(started);
      open.set(key, started);
    } else if (chain && !kind) {
      open.delete(key);
    }
  }
  return chains;
}

/** What is wrong with one chain, or undefined when it follows the policy. */
function chainProblem(chain: Chain, timing: Timing): string | undefined {
  const retries = chain.attempts.length - 1;
  if (retries === 0) return chain.kind === '408' ? undefined : 'never retried';
  if (retries > RETRY_WAITS_SECONDS.length) return `retried ${retries} times (at most 5)`;
  if (timing === 'order-only') return undefined;
  for (let index = 1; index < chain.attempts.length; index += 1) {
    const before = chain.attempts[index - 1]!;
    const waited = (chain.attempts[index]!.realMs - (before.realMs + before.entry.duration_ms)) / 1000;
    const expected = RETRY_WAITS_SECONDS[index - 1]!;
    if (waited < EARLY(expected) || waited > LATE(expected)) {
      return `retry ${index} after ${waited.toFixed(1)} s (expected ${expected} s)`;
    }
  }
  return undefined;
}

const evidenceOf = (chain: Chain, problem: string) => [
  `# ${problem}`,
  ...chain.attempts.map((r) => `${r.entry.curl}   # ${r.entry.real_at} -> ${r.entry.status}`),
];

function judgeChains(chains: Chain[], timing: Timing, what: string): Judgement {
  if (chains.length === 0) return notExercised(`no ${what} answered`);
  const bad = chains.flatMap((chain) => {
    const problem = chainProblem(chain, timing);
    return problem === undefined ? [] : [evidenceOf(chain, problem)];
  });
  const how = timing === 'real' ? 'count and waits' : 'order and count (timers faked)';
  if (bad.length === 0)
    return judgement('followed', `${chains.length} ${what} handled as the policy says (${how}).`);
  return judgement(
    'violated',
    `${bad.length} of ${chains.length} ${what} not retried as the policy says.`,
    bad.flat(),
  );
}

export function judgeRetry5xx(requests: readonly ObservedRequest[], timing: Timing): Judgement {
  const chains = retryChains(requests).filter((chain) => chain.kind !== 'too_many_sessions');
  return judgeChains(chains, timing, '50x or 408 failure(s)');
}

export function judgeTooManySessions(requests: readonly ObservedRequest[], timing: Timing): Judgement {
  const chains = retryChains(requests).filter((chain) => chain.kind === 'too_many_sessions');
  return judgeChains(chains, timing, 'Too Many Sessions error(s)');
}

/** 4xx answers other rules govern: their own re-sends are judged there (cooldown, rate, MFA, retries). */
const NOT_JUDGED_HERE = new Set([
  'too_many_sessions',
  'request_timeout',
  'refresh_cooldown',
  'too_many_requests',
]);

/**
 * A 401 may be sent again a couple of times (a worker reloading a rotated key); more than twice after
 * the first refusal is a retry loop (CLIENT-NO-RETRY-4XX).
 */
export const AUTH_REFUSALS_TOLERATED = 3;

/**
 * The same request refused for authentication, counted: the simulator's per-key counter
 * (auth-refusals.ts), or the 401s of a log made elsewhere (a proxy logs them with the rest).
 */
function refusalsOf(requests: readonly ObservedRequest[], counted: readonly AuthRefusal[]): AuthRefusal[] {
  const byRequest = new Map<string, AuthRefusal>();
  for (const r of requests) {
    if (r.entry.status !== 401) continue;
    const key = `${r.entry.method} ${r.entry.path}?${r.entry.query}`;
    const known = byRequest.get(key);
    if (known) {
      known.count += 1;
      known.last_at = r.entry.at;
    } else {
      const { curl, at } = r.entry;
      byRequest.set(key, { curl, count: 1, first_at: at, last_at: at, request_id: r.requestId ?? null });
    }
  }
  return [...counted, ...byRequest.values()];
}

const refusalLine = (r: AuthRefusal) =>
  `${r.curl}   # refused 401 ${r.count} times from ${r.first_at} to ${r.last_at}`;

/**
 * CLIENT-NO-RETRY-4XX: a request answered with a 4xx is sent again unchanged with no successful change
 * (a 2xx to a non-GET request) in between: a retry. A resume after a 428 is another request. A 401 is
 * a retry loop once the same request is refused more than AUTH_REFUSALS_TOLERATED times.
 */
export function judgeNoRetry4xx(
  requests: readonly ObservedRequest[],
  authRefusals: readonly AuthRefusal[] = [],
): Judgement {
  const failed = new Map<string, ObservedRequest>();
  let exercised = 0;
  const retried: string[] = [];
  for (const request of requests) {
    const { status, method, error_code } = request.entry;
    if (status === 401) continue;
    const key = sameRequestKey(request);
    const earlier = failed.get(key);
    if (earlier)
      retried.push(
        `${earlier.entry.curl}   # -> ${earlier.entry.status}`,
        `${request.entry.curl}   # sent again -> ${request.entry.status}`,
      );
    if (status >= 400 && status < 500 && !NOT_JUDGED_HERE.has(error_code ?? '')) {
      exercised += 1;
      failed.set(key, request);
    } else {
      failed.delete(key);
      if (method !== 'GET' && status < 300) failed.clear();
    }
  }
  const refusals = refusalsOf(requests, authRefusals);
  const looped = refusals.filter((r) => r.count > AUTH_REFUSALS_TOLERATED);
  exercised += refusals.reduce((sum, r) => sum + r.count, 0);
  if (exercised === 0) return notExercised('no 40x answered');
  if (retried.length === 0 && looped.length === 0)
    return judgement('followed', `${exercised} 40x answer(s), none sent again unchanged.`);
  const wrong = [
    retried.length > 0 && `${retried.length / 2} 40x request(s) sent again unchanged`,
    looped.length > 0 && `${looped.length} request(s) sent again more than twice after a 401`,
  ].filter(Boolean);
  return judgement('violated', `${wrong.join('; ')}.`, [...retried, ...looped.map(refusalLine)]);
}
