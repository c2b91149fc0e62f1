/**
 * The client judge fed from the proxy's side: each exchange becomes the request-log entry the
 * simulator's judge keeps (observe-request), and the same rule functions grade the client per key. The
 * webhook rules are the receiver's: no delivery passes through the proxy, so they are not exercised.
 */
import {
  CLIENT_RULES,
  type ClientRuleId,
  type Judgement,
  notExercised,
} from '../../../simulator/src/judge/client-rules.js';
import type { JudgeReport } from '../../../simulator/src/judge/judge-tenant.js';
import {
  judgeDeleteRate,
  judgeMfaResume,
  judgeNoSecrets,
  judgePagination,
  judgeRefreshCooldown,
} from '../../../simulator/src/judge/limit-rules.js';
import { observedRequest } from '../../../simulator/src/judge/logged-request.js';
import { observeRequest } from '../../../simulator/src/judge/observe-request.js';
import type { ObservedRequest } from '../../../simulator/src/judge/request-log.js';
import {
  judgeNoRetry4xx,
  judgeRetry5xx,
  judgeTooManySessions,
} from '../../../simulator/src/judge/retry-rules.js';
import { headerOf } from '../exchange/exchange.js';
import type { ExchangeView } from './exchange-view.js';

/** The header the simulator's dashboard sends: its polling is not the client's behaviour. */
const DASHBOARD_HEADER = 'x-ofkit-client';
const RECEIVER_ONLY = 'no webhook delivery passes through the proxy (the receiver gets them directly)';

export interface ClientJudge {
  observe(view: ExchangeView): void;
  /** One report per key that made a request, in the simulator judge's shape. */
  reports(): JudgeReport[];
}

function judgements(requests: readonly ObservedRequest[]): Record<ClientRuleId, Judgement> {
  const receiverOnly = notExercised(RECEIVER_ONLY);
  return {
    'CLIENT-RETRY-5XX': judgeRetry5xx(requests, 'real'),
    'CLIENT-NO-RETRY-4XX': judgeNoRetry4xx(requests),
    'CLIENT-TOO-MANY-SESSIONS': judgeTooManySessions(requests, 'real'),
    'CLIENT-NO-SECRETS': judgeNoSecrets(requests),
    'CLIENT-REFRESH-COOLDOWN': judgeRefreshCooldown(requests),
    'CLIENT-DELETE-RATE': judgeDeleteRate(requests),
    'CLIENT-MFA-RESUME': judgeMfaResume(requests),
    'CLIENT-PAGINATION-NEXT': judgePagination(requests),
    'CLIENT-WEBHOOK-ACK': receiverOnly,
    'CLIENT-WEBHOOK-BEARER': receiverOnly,
    'CLIENT-WEBHOOK-DUPLICATE': receiverOnly,
    'CLIENT-WEBHOOK-FOLLOW-UP': receiverOnly,
  };
}

export function createClientJudge(): ClientJudge {
  const logs = new Map<string, ObservedRequest[]>();
  return {
    observe(view) {
      const { request } = view.exchange;
      if (
        view.control ||
        headerOf(request.headers, DASHBOARD_HEADER) === 'dashboard' ||
        view.exchange.upstreamFailure
      )
        return;
      const log = logs.get(view.tenant) ?? [];
      logs.set(view.tenant, log);
      const headers: Record<string, string> = {};
      for (const [name, value] of request.headers) headers[name.toLowerCase()] ??= value;
      try {
        const logged = observeRequest(
          {
            method: view.method,
            path: view.apiPath,
            query: view.query,
            headers,
            body: request.body ?? '',
            origin: view.url.origin,
          },
          { status: view.status, headers: {}, body: view.responseJson },
          { operationId: view.operation?.operationId ?? null, rule: null },
          { atMs: view.atMs, startedRealMs: view.atMs, endedRealMs: view.atMs + view.exchange.durationMs },
        );
        log.push(observedRequest(log.length + 1, logged));
      } catch {
        // Observing must never stop the checks: an exchange the judge cannot read is left out of it.
      }
    },
    reports() {
      return [...logs].map(([tenant, requests]) => {
        const judged = judgements(requests);
        return {
          tenant,
          timing: 'real',
          requests: requests.length,
          deliveries: 0,
          dropped: 0,
          verdicts: CLIENT_RULES.map(({ rule, title, section }) => ({
            rule,
            title,
            section,
            ...judged[rule],
          })),
        };
      });
    },
  };
}
