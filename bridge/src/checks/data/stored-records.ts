/**
 * What a retrieval stores and a detail shows, as later exchanges of the same key show it:
 * DATA-RETRIEVE (the records a retrieval answered are stored: a later whole list of the link holds
 * them, their detail is no 404) and DATA-DETAIL (a detail shows the record as the list or retrieval
 * just before it did, when nothing was written in between).
 */
import { isDeepStrictEqual } from 'node:util';
import { type ExchangeView, isSuccess, recordsOf } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import {
  collectionOf,
  isRecordPath,
  pathIdOf,
  recordIdOf,
  ruleFinding,
  type SessionCheck,
} from '../session-check.js';

interface Seen {
  record: Record<string, unknown>;
  /** The tenant's write count when it was seen. */
  writes: number;
}

/**
 * Records kept for DATA-DETAIL, the latest seen: a detail is compared with the list just before it, and
 * a recording that runs for hours reads millions of records (each kept whole, some kilobytes).
 */
export const MAX_SEEN_RECORDS = 10_000;

const retrieves = (view: ExchangeView) =>
  view.method === 'POST' && view.operation?.rules.includes('DATA-RETRIEVE') === true;

export function createStoredRecordsCheck(): SessionCheck {
  const writes = new Map<string, number>();
  /** tenant|id -> the record as last served in a list or a retrieval; the latest MAX_SEEN_RECORDS. */
  const seen = new Map<string, Seen>();
  /** tenant|collection|link -> the ids the latest retrieval answered (and stored). */
  const retrieved = new Map<string, Set<string>>();
  /** tenant|id: deleted since (not expected any more). */
  const deleted = new Set<string>();

  const writesOf = (tenant: string) => writes.get(tenant) ?? 0;

  function remember(view: ExchangeView): void {
    if (view.query.has('fields') || view.query.has('omit')) return;
    for (const record of recordsOf(view)) {
      const id = recordIdOf(record);
      if (id === undefined) continue;
      const key = `${view.tenant}|${id}`;
      // Seen again: now the latest (a map keeps the order of insertion).
      seen.delete(key);
      seen.set(key, { record, writes: writesOf(view.tenant) });
      if (seen.size > MAX_SEEN_RECORDS) seen.delete(seen.keys().next().value!);
    }
  }

  function retrieval(view: ExchangeView, collection: string): void {
    const body = view.requestJson as { link?: unknown; save_data?: unknown } | undefined;
    if (
      view.status !== 201 ||
      !Array.isArray(view.responseJson) ||
      body?.save_data === false ||
      typeof body?.link !== 'string'
    )
      return;
    const ids = recordsOf(view)
      .map(recordIdOf)
      .filter((id): id is string => id !== undefined);
    retrieved.set(`${view.tenant}|${collection}|${body.link}`, new Set(ids));
  }

  function wholeList(view: ExchangeView, collection: string): Finding[] {
    const link = view.query.get('link');
    const names = [...view.query.keys()].filter((name) => !['link', 'page', 'page_size'].includes(name));
    const page = view.responseJson as { count?: unknown; results?: unknown[] };
    if (link === null || names.length > 0 || page.count !== page.results?.length) return [];
    const expected = retrieved.get(`${view.tenant}|${collection}|${link}`);
    if (expected === undefined) return [];
    const held = new Set(recordsOf(view).map(recordIdOf));
    const missing = [...expected].filter((id) => !held.has(id) && !deleted.has(`${view.tenant}|${id}`));
    if (missing.length === 0) return [];
    return [
      ruleFinding(
        view,
        'DATA-RETRIEVE',
        `${missing.length} of the ${expected.size} records the retrieval of link ${link} answered are not in its list (e.g. ${missing[0]})`,
      ),
    ];
  }

  function detail(view: ExchangeView): Finding[] {
    const id = pathIdOf(view);
    if (id === undefined) return [];
    const known = seen.get(`${view.tenant}|${id}`);
    if (view.status === 404) {
      const stored = [...retrieved.entries()].some(
        ([key, ids]) => key.startsWith(`${view.tenant}|`) && ids.has(id),
      );
      return stored && !deleted.has(`${view.tenant}|${id}`)
        ? [ruleFinding(view, 'DATA-RETRIEVE', `${id}, answered by a retrieval, is 404 on its detail`)]
        : [];
    }
    if (view.status !== 200 || known === undefined || known.writes !== writesOf(view.tenant)) return [];
    if (isDeepStrictEqual(known.record, view.responseJson)) return [];
    const differing = Object.keys({ ...known.record, ...(view.responseJson as object) }).filter(
      (name) => !isDeepStrictEqual(known.record[name], (view.responseJson as Record<string, unknown>)[name]),
    );
    return [
      ruleFinding(
        view,
        'DATA-DETAIL',
        `the detail of ${id} differs from the record the list showed just before (${differing.slice(0, 3).join(', ')})`,
      ),
    ];
  }

  return {
    observe(view) {
      if (view.control) {
        seen.clear();
        retrieved.clear();
        return [];
      }
      const collection = collectionOf(view);
      if (!view.operation || collection === undefined || view.exchange.upstreamFailure) return [];
      if (view.method !== 'GET') {
        if (isSuccess(view)) writes.set(view.tenant, writesOf(view.tenant) + 1);
        if (view.method === 'DELETE' && isSuccess(view)) {
          deleted.add(`${view.tenant}|${pathIdOf(view)}`);
          // A deletion may cascade (an account's transactions, a link's data): its retrievals are no
          // longer whole.
          for (const key of [...retrieved.keys()])
            if (key.startsWith(`${view.tenant}|`)) retrieved.delete(key);
        }
        if (retrieves(view)) {
          retrieval(view, collection);
          remember(view);
        }
        return [];
      }
      if (isRecordPath(view)) return detail(view);
      if (!isSuccess(view)) return [];
      const findings = wholeList(view, collection);
      remember(view);
      return findings;
    },
  };
}
