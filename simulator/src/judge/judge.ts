/**
 * The judge's one door: a log of a client's requests and of the deliveries to its receiver, with the
 * timing mode, in; a verdict per client rule of the catalogue out. The simulator judges its tenants'
 * logs through it (`GET /_ofkit/judge/`, `ofkit exec --judge`), the bridge the traffic it relays; the
 * rule-to-judgement table below is the only one. A log made elsewhere than in the simulator's pipeline
 * turns each exchange into an entry with `logEntryOf`, which masks the credentials as the simulator's
 * log does (CLIENT-NO-SECRETS). A log with resets is judged part by part (log-parts.ts): what was judged
 * before a reset stays judged.
 */
import type { SimRequest, SimResponse } from '../core/http-types.js';
import type { AuthRefusal } from './auth-refusals.js';
import {
  CLIENT_RULES,
  type ClientRuleId,
  type Judgement,
  type JudgeReport,
  notExercised,
  type RuleVerdict,
  type Timing,
} from './client-rules.js';
import type { KnownPasswords } from './known-passwords.js';
import {
  judgeDeleteRate,
  judgeMfaResume,
  judgeNoSecrets,
  judgePagination,
  judgeRefreshCooldown,
} from './limit-rules.js';
import { linkLives } from './link-lives.js';
import { judgeNoDuplicateLinks, judgeUpdateMode, reRegistrationEvidence } from './link-rules.js';
import { type LogPart, logParts, mergedJudgement } from './log-parts.js';
import { observedRequest } from './logged-request.js';
import { credentialForms, type ExchangeTimes, observeRequest } from './observe-request.js';
import { judgeRequestIdsLogged } from './request-ids.js';
import type { ObservedDelivery, ObservedRequest } from './request-log.js';
import { judgeNoRetry4xx, judgeRetry5xx, judgeTooManySessions } from './retry-rules.js';
import {
  judgeFollowUp,
  judgeWebhookAck,
  judgeWebhookBearer,
  judgeWebhookDuplicate,
} from './webhook-rules.js';

export type { AuthRefusal } from './auth-refusals.js';
export type { Verdict } from './client-rules.js';
export { KnownPasswords } from './known-passwords.js';
export { listFollowedToTheEnd, type Requirement } from './pagination-end.js';
export { consoleSummary, verdictCase } from './report-formats.js';
export { failuresToLog, isOfkitLine, judgeRequestIdsLogged } from './request-ids.js';
export { MAX_REQUESTS } from './request-log.js';
export type { JudgeReport, ObservedDelivery, ObservedRequest, RuleVerdict, Timing };

/** What the judge reads: the requests in order, and the deliveries or why none could be seen. */
export interface JudgedLog {
  requests: readonly ObservedRequest[];
  /**
   * The webhook deliveries with the receiver's answers; `{ unobserved: reason }` where the log's maker
   * sees none (a proxy between client and API): the webhook rules are then not exercised, with the reason.
   */
  deliveries: readonly ObservedDelivery[] | { unobserved: string };
  /** Requests a bound evicted: rules are judged on what is left. */
  dropped: number;
  /**
   * Requests refused for authentication (401) under the tenant's key id, counted apart from the log
   * (auth-refusals.ts); a log made elsewhere keeps its 401s among `requests` instead.
   */
  refusals?: readonly AuthRefusal[];
  /**
   * The client's own output (`ofkit golive` captures its command's, and reads `--client-log`):
   * CLIENT-REQUEST-IDS-LOGGED is decided on it, and not exercised without it.
   */
  clientOutput?: string;
  /**
   * Where the client reset the simulator (numbers in the entries' sequence): each part between two is
   * judged on its own, and a rule violated in any part is violated. None: one part.
   */
  resets?: readonly number[];
}

type Deliveries = readonly ObservedDelivery[];

/** The webhook rules' judgements: the receiver's deliveries, or not exercised when none could be seen. */
function webhookJudgements(log: LogPart) {
  const { deliveries, requests } = log;
  if (!Array.isArray(deliveries)) {
    const unseen = notExercised((deliveries as { unobserved: string }).unobserved);
    return {
      'CLIENT-WEBHOOK-ACK': unseen,
      'CLIENT-WEBHOOK-BEARER': unseen,
      'CLIENT-WEBHOOK-DUPLICATE': unseen,
      'CLIENT-WEBHOOK-FOLLOW-UP': unseen,
    };
  }
  const seen = deliveries as Deliveries;
  return {
    'CLIENT-WEBHOOK-ACK': judgeWebhookAck(seen),
    'CLIENT-WEBHOOK-BEARER': judgeWebhookBearer(seen),
    'CLIENT-WEBHOOK-DUPLICATE': judgeWebhookDuplicate(seen, requests),
    'CLIENT-WEBHOOK-FOLLOW-UP': judgeFollowUp(seen, requests),
  };
}

/** One part's judgements; the 401s counted apart and the client's output belong to the whole run. */
function judgements(
  log: LogPart & Pick<JudgedLog, 'refusals' | 'clientOutput'>,
  timing: Timing,
): Record<ClientRuleId, Judgement> {
  const { requests, refusals = [] } = log;
  const lives = linkLives(requests, Array.isArray(log.deliveries) ? (log.deliveries as Deliveries) : []);
  return {
    'CLIENT-RETRY-5XX': judgeRetry5xx(requests, timing),
    'CLIENT-NO-RETRY-4XX': judgeNoRetry4xx(requests, refusals),
    'CLIENT-TOO-MANY-SESSIONS': judgeTooManySessions(requests, timing),
    'CLIENT-NO-SECRETS': judgeNoSecrets(requests),
    'CLIENT-REFRESH-COOLDOWN': judgeRefreshCooldown(requests),
    'CLIENT-DELETE-RATE': judgeDeleteRate(requests),
    'CLIENT-MFA-RESUME': judgeMfaResume(requests, reRegistrationEvidence(lives)),
    'CLIENT-PAGINATION-NEXT': judgePagination(requests),
    'CLIENT-NO-DUPLICATE-LINKS': judgeNoDuplicateLinks(lives),
    'CLIENT-UPDATE-MODE': judgeUpdateMode(lives),
    'CLIENT-REQUEST-IDS-LOGGED': judgeRequestIdsLogged(log.clientOutput, requests, refusals),
    ...webhookJudgements(log),
  };
}

/** Every client rule of the catalogue with its verdict on `log`, for the client known as `tenant`. */
export function judge(tenant: string, log: JudgedLog, timing: Timing): JudgeReport {
  const parts = logParts(log, log.resets);
  const whole = { refusals: log.refusals, clientOutput: log.clientOutput };
  const judgedParts = (parts.length > 0 ? parts : [{ requests: [], deliveries: [] }]).map((part) =>
    judgements({ ...part, ...whole }, timing),
  );
  const judged = (rule: ClientRuleId) => mergedJudgement(judgedParts.map((part) => part[rule]));
  return {
    tenant,
    timing,
    requests: log.requests.length,
    deliveries: Array.isArray(log.deliveries) ? log.deliveries.length : 0,
    dropped: log.dropped,
    verdicts: CLIENT_RULES.map(({ rule, title, section }) => ({ rule, title, section, ...judged(rule) })),
  };
}

/** One exchange of the API seen outside the simulator's pipeline (a proxy's), as the judge reads it. */
export interface JudgedExchange {
  /** Header names in lower case: the Authorization header tells what to mask, and is never kept. */
  request: Pick<SimRequest, 'method' | 'path' | 'query' | 'headers' | 'body' | 'origin'>;
  response: Pick<SimResponse, 'status' | 'body'>;
  operationId: string | null;
  times: ExchangeTimes;
}

/**
 * The log entry numbered `seq` for `exchange`: masked and digested as the simulator's log keeps it;
 * `passwords`, one per client, learns its links' passwords so that CLIENT-NO-SECRETS sees them elsewhere.
 */
export function logEntryOf(
  exchange: JudgedExchange,
  seq: number,
  passwords?: KnownPasswords,
): ObservedRequest {
  const { request, response, operationId, times } = exchange;
  const meta = { operationId, rule: null };
  const answer = { ...response, headers: {} };
  const credentials = credentialForms(request.headers.authorization);
  return observedRequest(seq, observeRequest(request, answer, meta, times, credentials, passwords));
}
