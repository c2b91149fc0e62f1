/**
 * The client's side of the API's limits and conversations: CLIENT-REFRESH-COOLDOWN, CLIENT-DELETE-RATE,
 * CLIENT-MFA-RESUME, CLIENT-PAGINATION-NEXT and CLIENT-NO-SECRETS, each judged from the request log.
 */
import { type Judgement, judgement, notExercised } from './client-rules.js';
import type { ObservedRequest } from './request-log.js';

const line = (r: ObservedRequest, note = '') =>
  `${r.entry.curl}   # ${r.entry.at} -> ${r.entry.status}${note}`;

/** Refusals of the same target (a link, a collection) that follow one another with no success between. */
function repeatedRefusals(
  requests: readonly ObservedRequest[],
  targetOf: (r: ObservedRequest) => string | undefined,
  refused: number,
): { refusals: number; repeats: string[] } {
  const lastRefusal = new Map<string, ObservedRequest>();
  let refusals = 0;
  const repeats: string[] = [];
  for (const request of requests) {
    const target = targetOf(request);
    if (target === undefined) continue;
    if (request.entry.status !== refused) {
      lastRefusal.delete(target);
      continue;
    }
    refusals += 1;
    const before = lastRefusal.get(target);
    if (before) repeats.push(line(before), line(request, '  (sent before the wait was over)'));
    lastRefusal.set(target, request);
  }
  return { refusals, repeats };
}

/** CLIENT-REFRESH-COOLDOWN: a refresh inside the cooldown after a 409 gets another 409. */
export function judgeRefreshCooldown(requests: readonly ObservedRequest[]): Judgement {
  const linkOf = (r: ObservedRequest) => (r.entry.operation_id === 'refreshLink' ? r.entry.path : undefined);
  const { refusals, repeats } = repeatedRefusals(requests, linkOf, 409);
  if (refusals === 0) return notExercised('no refresh answered 409');
  if (repeats.length === 0)
    return judgement('followed', `${refusals} 409(s); the link was not refreshed again inside its cooldown.`);
  return judgement('violated', `${repeats.length / 2} refresh(es) inside the cooldown after a 409.`, repeats);
}

/** CLIENT-DELETE-RATE: a deletion in the same collection right after a 429 gets another 429. */
export function judgeDeleteRate(requests: readonly ObservedRequest[]): Judgement {
  const collectionOf = (r: ObservedRequest) =>
    r.entry.method === 'DELETE' ? (r.entry.operation_id ?? undefined) : undefined;
  const { refusals, repeats } = repeatedRefusals(requests, collectionOf, 429);
  if (refusals === 0) return notExercised('no deletion answered 429');
  if (repeats.length === 0)
    return judgement('followed', `${refusals} 429(s); deletions waited for the window.`);
  return judgement(
    'violated',
    `${repeats.length / 2} deletion(s) sent into the window after a 429.`,
    repeats,
  );
}

/**
 * CLIENT-MFA-RESUME: every 428's session is resumed in time with its link, or abandoned; never answered
 * by registering the same end-user again while it can still be resumed (`reRegistered`: link-lives.ts).
 */
export function judgeMfaResume(
  requests: readonly ObservedRequest[],
  reRegistered: readonly string[],
): Judgement {
  const paused = requests.filter((r) => r.mfa !== undefined);
  if (paused.length === 0) return notExercised('no 428 answered');
  const problems: string[] = [];
  let resumed = 0;
  for (const pause of paused) {
    const mfa = pause.mfa!;
    const resume = requests.find((r) => r.entry.seq > pause.entry.seq && r.resume?.session === mfa.session);
    if (!resume) continue;
    resumed += 1;
    const late = resume.atMs >= mfa.expiresAtMs || resume.entry.error_code === 'session_expired';
    const otherLink = mfa.link !== null && resume.resume!.link !== mfa.link;
    if (late) problems.push(line(pause), line(resume, '  (resumed after the session expired)'));
    else if (otherLink) problems.push(line(pause), line(resume, '  (resumed with another link)'));
  }
  const abandoned = paused.length - resumed;
  if (problems.length === 0 && reRegistered.length === 0) {
    return judgement(
      'followed',
      `${paused.length} 428(s): ${resumed} resumed in time, ${abandoned} abandoned, none registered again.`,
    );
  }
  const wrong = [
    problems.length > 0 &&
      `${problems.length / 2} of ${paused.length} 428(s) resumed late or with another link`,
    reRegistered.length > 0 &&
      `${reRegistered.length / 2} registration(s) made again instead of resuming a 428`,
  ].filter(Boolean);
  return judgement('violated', `${wrong.join('; ')}.`, [...problems, ...reRegistered]);
}

/** A URL's path and its parameters in a fixed order: `next` and a request compare on what they ask. */
function normalised(path: string, query: string): string {
  const params = [...new URLSearchParams(query).entries()].map(([k, v]) => `${k}=${v}`).sort();
  return `${path}?${params.join('&')}`;
}

/** CLIENT-PAGINATION-NEXT: page 2 and later are the `next` URLs given; no empty page past the last. */
export function judgePagination(requests: readonly ObservedRequest[]): Judgement {
  const given = new Set<string>();
  const problems: string[] = [];
  let followed = 0;
  for (const request of requests) {
    const { method, path, query } = request.entry;
    const page = Number(new URLSearchParams(query).get('page') ?? '1');
    if (method === 'GET' && page >= 2 && request.page) {
      if (request.page.empty) problems.push(line(request, '  (a page past the last)'));
      else if (!given.has(normalised(path, query)))
        problems.push(line(request, '  (not a `next` URL given)'));
      else followed += 1;
    }
    if (request.page?.next) {
      const next = new URL(request.page.next);
      given.add(normalised(next.pathname, next.search.slice(1)));
    }
  }
  if (given.size === 0 && problems.length === 0) return notExercised('no list had a next page');
  if (problems.length === 0)
    return judgement('followed', `${followed} further page(s), each through \`next\`.`);
  return judgement(
    'violated',
    `${problems.length} page request(s) not through \`next\` or past the last.`,
    problems,
  );
}

/** CLIENT-NO-SECRETS: the key id or secret anywhere but the Authorization header. */
export function judgeNoSecrets(requests: readonly ObservedRequest[]): Judgement {
  if (requests.length === 0) return notExercised('no request made');
  const leaks = requests.filter((r) => r.secretsIn.length > 0);
  if (leaks.length === 0)
    return judgement(
      'followed',
      `${requests.length} request(s), credentials only in the Authorization header.`,
    );
  const evidence = leaks.map((r) => line(r, `  (credentials in the ${r.secretsIn.join(', ')}, masked here)`));
  return judgement(
    'violated',
    `${leaks.length} request(s) carried the API key or secret outside the Authorization header.`,
    evidence,
  );
}
