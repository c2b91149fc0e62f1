/**
 * The client judge fed from the proxy's side: each exchange becomes an entry of a per-key log, and the
 * judge's one door grades each key's client on it. The webhook rules are the receiver's: no delivery
 * passes through the proxy, so the log says so and the judge reports them not exercised.
 *
 * Each key's log keeps its latest MAX_REQUESTS entries, as the simulator's does: a recording that runs
 * for hours sees millions of exchanges (an entry is a kilobyte or so), and the judge reads a bounded
 * log with what the bound dropped counted (its report says how many), judging the rules on the rest.
 */
import {
  type JudgeReport,
  judge,
  KnownPasswords,
  logEntryOf,
  MAX_REQUESTS,
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

/** One key's log: its entries (the latest, up to twice the bound between trims) and what went before. */
interface KeyLog {
  requests: ObservedRequest[];
  /** Entries the bound dropped. */
  dropped: number;
  /** Exchanges observed: the next entry's number. */
  seen: number;
}

/**
 * `maxRequests`: entries judged per key (the latest). The oldest are cut in one go once twice as many
 * are held, so an exchange never pays for moving the whole log.
 */
export function createClientJudge(maxRequests = MAX_REQUESTS): ClientJudge {
  const logs = new Map<string, KeyLog>();
  // CLIENT-NO-SECRETS: each key's links' passwords, learnt from its registrations, looked for elsewhere.
  const passwords = new Map<string, KnownPasswords>();
  return {
    observe(view) {
      const { request } = view.exchange;
      if (
        view.control ||
        headerOf(request.headers, DASHBOARD_HEADER) === 'dashboard' ||
        view.exchange.upstreamFailure
      )
        return;
      const log = logs.get(view.tenant) ?? { requests: [], dropped: 0, seen: 0 };
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
        const known = passwords.get(view.tenant) ?? new KnownPasswords();
        passwords.set(view.tenant, known);
        log.requests.push(logEntryOf(exchange, log.seen + 1, known));
        log.seen += 1;
        if (log.requests.length >= 2 * maxRequests) {
          const cut = log.requests.length - maxRequests;
          log.requests.splice(0, cut);
          log.dropped += cut;
        }
      } catch {
        // Observing must never stop the checks: an exchange the judge cannot read is left out of it.
      }
    },
    reports() {
      const deliveries = { unobserved: RECEIVER_ONLY };
      return [...logs].map(([tenant, log]) => {
        const over = Math.max(0, log.requests.length - maxRequests);
        const requests = over === 0 ? log.requests : log.requests.slice(over);
        return judge(tenant, { requests, deliveries, dropped: log.dropped + over }, 'real');
      });
    },
  };
}
