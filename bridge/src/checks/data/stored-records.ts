/**
 * What a retrieval stores and a detail shows, as later exchanges of the same key show it:
 * DATA-RETRIEVE (the records a retrieval answered are stored: a later whole list of the link holds
 * them, their detail is no 404) and DATA-DETAIL (a detail shows the record as the list or retrieval
 * just before it did, when nothing was written in between).
 */
import { isDeepStrictEqual } from 'node:util';
import { bodyPiecesOf } from '../../exchange/body-pieces.js';
import { type ExchangeView, isSuccess, recordsIn, recordsOf } from '../exchange-view.js';
import type { Finding } from '../finding.js';
import {
  collectionOf,
  isRecordPath,
  pathIdOf,
  recordIdOf,
  ruleFinding,
  type SessionCheck,
} from '../session-check.js';
import { AnswerArena, type ArenaSlot } from './answer-arena.js';
import { SeenRecords } from './seen-records.js';

/**
 * A list's or a retrieval's answer whose records are kept for DATA-DETAIL: where the arena holds the
 * text that was recorded (the one the checks parsed), read again only when a detail asks.
 */
type SeenAnswer = ArenaSlot;

/**
 * Records kept for DATA-DETAIL, the latest served (seen-records.ts): a detail is compared with the list
 * just before it, and a recording that runs for hours reads millions of records (some kilobytes each).
 */
export const MAX_SEEN_RECORDS = 10_000;

/**
 * Bytes of the answers kept (answer-arena.ts): some 120 pages of 100 transactions, so the record bound
 * above is the one met first with pages of that size.
 */
const SEEN_ANSWER_BYTES = 16 * 1_048_576;

/** Answers kept parsed once a detail asked for one of their records: details usually follow their list. */
const MAX_PARSED_ANSWERS = 4;

/** The records of an answer's text by id (the last of a repeated id, as remembering it kept). */
function recordsById(text: string | undefined): Map<string, Record<string, unknown>> {
  const records = new Map<string, Record<string, unknown>>();
  let body: unknown;
  try {
    body = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return records;
  }
  for (const record of recordsIn(body)) {
    const id = recordIdOf(record);
    if (id !== undefined) records.set(id, record);
  }
  return records;
}

const retrieves = (view: ExchangeView) =>
  view.method === 'POST' && view.operation?.rules.includes('DATA-RETRIEVE') === true;

/** `answerBytes`: the arena's size (a test makes it small). */
export function createStoredRecordsCheck(answerBytes = SEEN_ANSWER_BYTES): SessionCheck {
  const writes = new Map<string, number>();
  /** The answer that last served each record in a list or a retrieval; the latest MAX_SEEN_RECORDS. */
  const seen = new SeenRecords(MAX_SEEN_RECORDS);
  const answers = new AnswerArena(answerBytes);
  /** The answers a detail read again, the oldest first out: their records by id. */
  const parsed = new Map<SeenAnswer, Map<string, Record<string, unknown>>>();
  /** tenant|collection|link -> the ids the latest retrieval answered (and stored). */
  const retrieved = new Map<string, Set<string>>();
  /** tenant|id: deleted since (not expected any more). */
  const deleted = new Set<string>();

  const writesOf = (tenant: string) => writes.get(tenant) ?? 0;

  function remember(view: ExchangeView): void {
    const { response } = view.exchange;
    if (view.query.has('fields') || view.query.has('omit') || response.body === undefined) return;
    const records = recordsOf(view);
    if (records.length === 0) return;
    // An answer longer than the arena is not kept: a detail of its records is not judged.
    const answer = answers.keep(bodyPiecesOf(response) ?? [response.body]);
    if (answer === undefined) return;
    const writes = writesOf(view.tenant);
    for (const record of records) {
      const id = recordIdOf(record);
      if (id !== undefined) seen.see(view.tenant, id, answer, writes);
    }
  }

  /** The record `id` as `answer` served it. */
  function recordOf(answer: SeenAnswer, id: string): Record<string, unknown> | undefined {
    let records = parsed.get(answer);
    if (records === undefined) {
      // Later answers may have written over it: its records are then no longer known (not judged).
      records = recordsById(answers.text(answer));
      parsed.set(answer, records);
      if (parsed.size > MAX_PARSED_ANSWERS) parsed.delete(parsed.keys().next().value!);
    }
    return records.get(id);
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
    const known = seen.get(view.tenant, id);
    if (view.status === 404) {
      const stored = [...retrieved.entries()].some(
        ([key, ids]) => key.startsWith(`${view.tenant}|`) && ids.has(id),
      );
      return stored && !deleted.has(`${view.tenant}|${id}`)
        ? [ruleFinding(view, 'DATA-RETRIEVE', `${id}, answered by a retrieval, is 404 on its detail`)]
        : [];
    }
    if (view.status !== 200 || known === undefined || known.writes !== writesOf(view.tenant)) return [];
    const record = recordOf(known.answer, id);
    if (record === undefined || isDeepStrictEqual(record, view.responseJson)) return [];
    const differing = Object.keys({ ...record, ...(view.responseJson as object) }).filter(
      (name) => !isDeepStrictEqual(record[name], (view.responseJson as Record<string, unknown>)[name]),
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
        parsed.clear();
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
