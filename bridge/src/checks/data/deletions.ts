/**
 * What a deletion must leave behind, as the exchanges after it show: a deleted record is not served
 * again (DATA-DELETE), a deleted link takes its data with it (LINK-DELETE-SYNC), a deleted account its
 * transactions (ACCOUNT-DELETE-CASCADE), and asking for it again gets 404 (ERR-404). DELETE-RATE-LIMIT:
 * at most `x-rate-limit` accepted deletions per key and collection in the sliding window, on the
 * recording's clock (a control API clock move starts the window over).
 */

import { LINKS } from '../../../../openapi/http/api-paths.js';
import { headerOf } from '../../exchange/exchange.js';
import { type ExchangeView, isSuccess, recordsOf } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import {
  collectionOf,
  isRecordPath,
  pathIdOf,
  recordIdOf,
  ruleFinding,
  type SessionCheck,
  type SessionState,
} from '../session-check.js';

interface RateLimit {
  limit: number;
  window_seconds: number;
  applies_to?: string;
}

function accountIdOf(record: Record<string, unknown>): unknown {
  const account = record.account;
  return typeof account === 'object' && account !== null ? (account as { id?: unknown }).id : account;
}

export function createDeletionsCheck(): SessionCheck {
  /** tenant|id -> the collection the record was deleted from. */
  const deleted = new Map<string, string>();
  /** tenant|collection -> the accepted deletions' times (ms) in this epoch. */
  const windows = new Map<string, { epoch: number; times: number[] }>();

  function rateLimit(view: ExchangeView, state: SessionState, collection: string): Finding[] {
    const limit = view.operation!.raw['x-rate-limit'] as RateLimit | undefined;
    if (limit === undefined || !isSuccess(view)) return [];
    const async = headerOf(view.exchange.request.headers, 'x-service-request-mode') === 'async';
    if (limit.applies_to === 'synchronous' && async) return [];
    const key = `${view.tenant}|${collection}`;
    const window = windows.get(key);
    const times = window?.epoch === state.epoch ? window.times : [];
    const recent = [...times.filter((at) => view.atMs - at < limit.window_seconds * 1000), view.atMs];
    windows.set(key, { epoch: state.epoch, times: recent });
    if (recent.length <= limit.limit) return [];
    return [
      ruleFinding(
        view,
        'DELETE-RATE-LIMIT',
        `deletion ${recent.length} in ${limit.window_seconds} s on ${collection} was accepted; the limit is ${limit.limit}`,
      ),
    ];
  }

  /** A deleted record, or a record of a deleted link or account, served again. */
  function servedAgain(view: ExchangeView): Finding[] {
    // Nothing deleted yet (the usual case): no record of a page can be one.
    if (deleted.size === 0) return [];
    const findings: Finding[] = [];
    for (const record of recordsOf(view)) {
      const id = recordIdOf(record);
      const gone = id === undefined ? undefined : deleted.get(`${view.tenant}|${id}`);
      if (gone !== undefined) {
        const rule = gone === LINKS ? 'LINK-DELETE-SYNC' : 'DATA-DELETE';
        findings.push(
          ruleFinding(view, rule, `${id}, deleted from ${gone} before, is served again`, { sample: id }),
        );
        continue;
      }
      if (typeof record.link === 'string' && deleted.get(`${view.tenant}|${record.link}`) === LINKS)
        findings.push(
          ruleFinding(
            view,
            'LINK-DELETE-SYNC',
            `${id ?? 'a record'} of deleted link ${record.link} is served again`,
          ),
        );
      const account = accountIdOf(record);
      if (typeof account === 'string' && deleted.get(`${view.tenant}|${account}`) === '/api/accounts/')
        findings.push(
          ruleFinding(
            view,
            'ACCOUNT-DELETE-CASCADE',
            `${id ?? 'a record'} of deleted account ${account} is served again`,
          ),
        );
    }
    return findings.slice(0, 3);
  }

  /** ERR-404: a deleted record asked for again is unknown. */
  function askedAgain(view: ExchangeView): Finding[] {
    const id = pathIdOf(view);
    if (
      !isRecordPath(view) ||
      id === undefined ||
      isSuccess(view) ||
      view.status === 404 ||
      view.status === 401
    )
      return [];
    if (!deleted.has(`${view.tenant}|${id}`) || view.status >= 500) return [];
    return [ruleFinding(view, 'ERR-404', `${id}, deleted before, answered ${view.status}, not 404`)];
  }

  return {
    observe(view, state) {
      if (view.control || !view.operation || view.exchange.upstreamFailure) return [];
      const collection = collectionOf(view);
      if (collection === undefined) return [];
      if (view.method === 'DELETE' && isRecordPath(view)) {
        const findings = rateLimit(view, state, collection);
        const id = pathIdOf(view);
        // An asynchronous deletion (202) finishes later: only a finished one is judged.
        if (id !== undefined && view.status === 204) deleted.set(`${view.tenant}|${id}`, collection);
        return findings;
      }
      return [...(isSuccess(view) ? servedAgain(view) : []), ...askedAgain(view)];
    },
  };
}
