/**
 * One tenant's report (`GET /_ofkit/judge/`): every client rule of the catalogue with its verdict,
 * judged on the observations read from the log when the report is asked for.
 */
import {
  CLIENT_RULES,
  type ClientRuleId,
  type Judgement,
  type RuleVerdict,
  type Timing,
} from './client-rules.js';
import {
  judgeDeleteRate,
  judgeMfaResume,
  judgeNoSecrets,
  judgePagination,
  judgeRefreshCooldown,
} from './limit-rules.js';
import type { TenantObservations } from './request-log.js';
import { judgeNoRetry4xx, judgeRetry5xx, judgeTooManySessions } from './retry-rules.js';
import {
  judgeFollowUp,
  judgeWebhookAck,
  judgeWebhookBearer,
  judgeWebhookDuplicate,
} from './webhook-rules.js';

export interface JudgeReport {
  tenant: string;
  timing: Timing;
  requests: number;
  deliveries: number;
  /** Requests evicted by the memory bound: rules are judged on what is left. */
  dropped: number;
  verdicts: RuleVerdict[];
}

function judgements(log: TenantObservations, timing: Timing): Record<ClientRuleId, Judgement> {
  const { requests, deliveries } = log;
  return {
    'CLIENT-RETRY-5XX': judgeRetry5xx(requests, timing),
    'CLIENT-NO-RETRY-4XX': judgeNoRetry4xx(requests),
    'CLIENT-TOO-MANY-SESSIONS': judgeTooManySessions(requests, timing),
    'CLIENT-NO-SECRETS': judgeNoSecrets(requests),
    'CLIENT-REFRESH-COOLDOWN': judgeRefreshCooldown(requests),
    'CLIENT-DELETE-RATE': judgeDeleteRate(requests),
    'CLIENT-MFA-RESUME': judgeMfaResume(requests),
    'CLIENT-PAGINATION-NEXT': judgePagination(requests),
    'CLIENT-WEBHOOK-ACK': judgeWebhookAck(deliveries),
    'CLIENT-WEBHOOK-BEARER': judgeWebhookBearer(deliveries),
    'CLIENT-WEBHOOK-DUPLICATE': judgeWebhookDuplicate(deliveries),
    'CLIENT-WEBHOOK-FOLLOW-UP': judgeFollowUp(deliveries, requests),
  };
}

export function judgeTenant(tenant: string, log: TenantObservations, timing: Timing): JudgeReport {
  const judged = judgements(log, timing);
  return {
    tenant,
    timing,
    requests: log.requests.length,
    deliveries: log.deliveries.length,
    dropped: log.dropped,
    verdicts: CLIENT_RULES.map(({ rule, title, section }) => ({ rule, title, section, ...judged[rule] })),
  };
}
