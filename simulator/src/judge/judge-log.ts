/**
 * The judge's log in the store, so every replica on one store judges the whole client. A reset (or a
 * snapshot import) does not forget what was judged: it marks where the tenant started afresh (a third
 * log, `judge:resets`), the request log's readers see only what came after the last mark, and the judge
 * judges each part between marks on its own (judge.ts). Writing is fire
 * and forget: an append goes to the store at once, in the order of the calls (the memory store takes it
 * before the call returns; one Redis connection runs commands in the order they were sent), and nothing
 * on the request path waits for it. A failed write loses that entry, is reported once (again only after
 * a write succeeded), and never fails a request. Reading parses the entries and builds what the judge
 * needs only then, after this process's writes of the tenant have landed.
 */
import type { Store } from '../store/store.js';
import { fromRow, type LoggedRequest, loggedRow, observedRequest } from './logged-request.js';
import {
  DELIVERY_LOG,
  DELIVERY_LOG_BOUNDS,
  type LoggedDelivery,
  type ObservedDelivery,
  REQUEST_LOG,
  REQUEST_LOG_BOUNDS,
  RESET_LOG,
  RESET_LOG_BOUNDS,
  type RequestLogEntry,
  requestLogPage,
  type TenantObservations,
} from './request-log.js';

export interface JudgeLog {
  /** Logs a request of the tenant (fire and forget). */
  request(tenant: string, logged: LoggedRequest): void;
  /** Logs a delivery attempt or a probe of the tenant's receiver (fire and forget). */
  delivery(tenant: string, delivery: LoggedDelivery): void;
  /**
   * The tenant starts afresh (a reset, an import), after the writes sent before it: the request log's
   * readers see only what comes next; the judge keeps what came before, judged on its own.
   */
  clear(tenant: string): void;
  /** Everything the judge reads of the tenant. */
  observations(tenant: string): Promise<TenantObservations>;
  /** `GET /_ofkit/requests/?after=&limit=`: entries after `after`, oldest first. */
  requests(
    tenant: string,
    after: number,
    limit: number,
  ): Promise<{ requests: RequestLogEntry[]; next_after: number; dropped: number }>;
}

export interface JudgeLogOptions {
  store: Store;
  /** Told of a write the store refused, once until a write succeeds again. */
  onError: (error: Error) => void;
}

export function createJudgeLog(options: JudgeLogOptions): JudgeLog {
  const { store } = options;
  /**
   * The last write sent per tenant (one promise a tenant, kept): writes land in order, so it landing
   * means they all did.
   */
  const lastWrite = new Map<string, Promise<void>>();
  let failing = false;
  const landed = () => {
    failing = false;
  };
  const lost = (error: unknown) => {
    if (failing) return;
    failing = true;
    options.onError(
      new Error(`client judge: a log write failed, the entry is lost: ${(error as Error).message}`),
    );
  };

  function sent(tenant: string, write: Promise<unknown>): void {
    lastWrite.set(tenant, write.then(landed, lost));
  }

  function append(tenant: string, log: string, entry: unknown, bounds = REQUEST_LOG_BOUNDS): void {
    let text: string;
    try {
      text = JSON.stringify(entry);
    } catch {
      // Observing must never change an answer: an entry that is not JSON is left out.
      return;
    }
    sent(tenant, store.appendLog(tenant, log, text, bounds));
  }

  async function read(tenant: string, log: string, after: number, limit: number) {
    await lastWrite.get(tenant);
    return store.readLog(tenant, log, after, limit);
  }

  return {
    request: (tenant, logged) => append(tenant, REQUEST_LOG, loggedRow(logged)),
    delivery: (tenant, delivery) => append(tenant, DELIVERY_LOG, delivery, DELIVERY_LOG_BOUNDS),
    clear: (tenant) => append(tenant, RESET_LOG, 0, RESET_LOG_BOUNDS),
    async observations(tenant) {
      const [requests, deliveries, resets] = await Promise.all([
        read(tenant, REQUEST_LOG, 0, REQUEST_LOG_BOUNDS.entries),
        read(tenant, DELIVERY_LOG, 0, DELIVERY_LOG_BOUNDS.entries),
        read(tenant, RESET_LOG, 0, RESET_LOG_BOUNDS.entries),
      ]);
      return {
        resets: resets.entries.map(({ seq }) => seq),
        requests: requests.entries.map(({ seq, entry }) => observedRequest(seq, fromRow(JSON.parse(entry)))),
        deliveries: deliveries.entries.map(
          ({ seq, entry }): ObservedDelivery => ({ seq, ...(JSON.parse(entry) as LoggedDelivery) }),
        ),
        dropped: requests.dropped,
      };
    },
    async requests(tenant, after, limit) {
      // What came before the last reset is the judge's, no longer the log's readers'.
      const lastReset = await read(tenant, RESET_LOG, 0, RESET_LOG_BOUNDS.entries);
      const from = Math.max(after, lastReset.entries.at(-1)?.seq ?? 0);
      const page = await read(tenant, REQUEST_LOG, from, limit);
      const entries = page.entries.map(
        ({ seq, entry }) => observedRequest(seq, fromRow(JSON.parse(entry))).entry,
      );
      return requestLogPage(entries, from, page.dropped);
    },
  };
}
