/**
 * The checks of one recording, exchange by exchange in order: the document's (request, status, body,
 * members) and the rules' (each a small check that remembers what it needs of the exchanges before),
 * and the client judge fed from the client's side. The live proxy and `ofkit drift` run the same
 * session over the same redacted exchanges, so both report the same findings.
 */
import type { JudgeReport } from '../../../simulator/src/judge/judge.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import type { Exchange } from '../exchange/exchange.js';
import { createClientJudge } from './client-judge.js';
import { createAuthenticationCheck } from './cross-cutting/authentication.js';
import { createFiltersCheck } from './cross-cutting/filters.js';
import { createPagesCheck } from './cross-cutting/pages.js';
import { createUnknownIdsCheck } from './cross-cutting/unknown-ids.js';
import { createDeletionsCheck } from './data/deletions.js';
import { createRetrievalLimitsCheck } from './data/retrieval-limits.js';
import { createStoredRecordsCheck } from './data/stored-records.js';
import { checkRequest } from './document/request-check.js';
import { checkResponse } from './document/response-check.js';
import { viewExchange } from './exchange-view.js';
import type { Finding } from './finding.js';
import { createLinkRulesCheck } from './links/link-rules.js';
import { createPaymentRulesCheck } from './payments/payment-rules.js';
import type { SessionCheck } from './session-check.js';

/** Control API paths after which time moved or the tenant's state was replaced. */
const EPOCH_PATHS = /^\/_ofkit\/(clock|reset|snapshot|scenarios)\//;

export interface CheckSession {
  /** Checks the next exchange (already redacted) and returns its findings. */
  observe(exchange: Exchange): Finding[];
  /** Exchanges seen; of them, control API ones (not checked) and the proxy's own failures. */
  counts(): { exchanges: number; control: number; upstreamFailures: number };
  /** Operations seen, by operationId, with how many exchanges each. */
  operations(): Map<string, number>;
  judge(): JudgeReport[];
}

export function createCheckSession(document: BridgeDocument, basePath = ''): CheckSession {
  const checks: SessionCheck[] = [
    createAuthenticationCheck(),
    createPagesCheck(),
    createFiltersCheck(document),
    createUnknownIdsCheck(document),
    createLinkRulesCheck(),
    createDeletionsCheck(),
    createStoredRecordsCheck(),
    createRetrievalLimitsCheck(),
    createPaymentRulesCheck(document),
  ];
  const judge = createClientJudge();
  const operations = new Map<string, number>();
  const counts = { exchanges: 0, control: 0, upstreamFailures: 0 };
  const state = { epoch: 0 };
  return {
    observe(exchange) {
      const view = viewExchange(document, exchange, counts.exchanges, basePath);
      counts.exchanges += 1;
      if (view.control) {
        counts.control += 1;
        if (view.method !== 'GET' && EPOCH_PATHS.test(view.apiPath)) state.epoch += 1;
      }
      if (exchange.upstreamFailure) counts.upstreamFailures += 1;
      judge.observe(view);
      if (view.operation)
        operations.set(view.operation.operationId, (operations.get(view.operation.operationId) ?? 0) + 1);
      const findings =
        view.control || exchange.upstreamFailure
          ? []
          : [...checkRequest(document, view), ...checkResponse(document, view)];
      for (const check of checks) findings.push(...check.observe(view, state));
      return findings;
    },
    counts: () => ({ ...counts }),
    operations: () => new Map(operations),
    judge: () => judge.reports(),
  };
}
