/**
 * The client judge fed from the proxy's side: each exchange becomes an entry of a per-key log, and the
 * judge's one door grades each key's client on it. The webhook rules are the receiver's: no delivery
 * passes through the proxy, so the log says so and the judge reports them not exercised.
 */
import {
  type JudgeReport,
  judge,
  logEntryOf,
  type ObservedRequest,
} from '../../../simulator/src/judge/judge.js';
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

/** The request's headers by lower-case name, the first of a repeated one. */
function headersOf(view: ExchangeView): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of view.exchange.request.headers) headers[name.toLowerCase()] ??= value;
  return headers;
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
      try {
        const exchange = {
          request: {
            method: view.method,
            path: view.apiPath,
            query: view.query,
            headers: headersOf(view),
            body: request.body ?? '',
            origin: view.url.origin,
          },
          response: { status: view.status, body: view.responseJson },
          operationId: view.operation?.operationId ?? null,
          times: {
            atMs: view.atMs,
            startedRealMs: view.atMs,
            endedRealMs: view.atMs + view.exchange.durationMs,
          },
        };
        log.push(logEntryOf(exchange, log.length + 1));
      } catch {
        // Observing must never stop the checks: an exchange the judge cannot read is left out of it.
      }
    },
    reports() {
      const deliveries = { unobserved: RECEIVER_ONLY };
      return [...logs].map(([tenant, requests]) =>
        judge(tenant, { requests, deliveries, dropped: 0 }, 'real'),
      );
    },
  };
}
