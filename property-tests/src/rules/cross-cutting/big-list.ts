/**
 * PAGE-MAX above 1000: a list that really holds more than 1000 records, so that a
 * `page_size` above 1000 is seen served as 1000. The lists the suite fills are smaller; a year of a
 * bank link's transactions (one retrieval of 365 days) is the one the suite can make larger.
 */
import { isObject } from '../../../../openapi/document/json.js';
import { TRANSACTIONS } from '../../../../openapi/http/api-paths.js';
import { dayText, targetToday } from '../data/retrieval.js';
import type { SuiteContext } from '../rule.js';
import type { ListSource } from './list-sources.js';

const MAX_PAGE_SIZE = 1000;

async function countOf(suite: SuiteContext, source: ListSource): Promise<number> {
  const query = { ...source.base, page_size: '1' };
  const answer = await suite.http.request({
    method: 'GET',
    url: source.path,
    query,
    headers: source.headers,
  });
  return isObject(answer.json) && typeof answer.json.count === 'number' ? answer.json.count : 0;
}

/** A list with more than 1000 records (made when none has), or undefined with a note. */
export async function bigList(
  suite: SuiteContext,
  sources: ListSource[],
  note: (text: string) => void,
): Promise<ListSource | undefined> {
  for (const source of sources) if ((await countOf(suite, source)) > MAX_PAGE_SIZE) return source;
  const transactions = sources.find((source) => source.path === TRANSACTIONS && source.base.link);
  if (transactions) {
    const link = transactions.base.link!;
    const today = await targetToday(suite, link);
    const json = { link, date_from: dayText(today - 364), date_to: dayText(today) };
    await suite.http.request({ method: 'POST', url: TRANSACTIONS, json });
    if ((await countOf(suite, transactions)) > MAX_PAGE_SIZE) return transactions;
  }
  note('no list holds more than 1000 records: a page_size above 1000 is only tried on smaller lists');
  return undefined;
}
