/**
 * WEBHOOK-SANDBOX: in the sandbox "a historical event is always sent when a link is created", so a new
 * link arrives with the records of its historical update (accounts and transactions among them). Their
 * ids cannot be known before, so the model reads them once, right after the registration, from the
 * link's lists (walked under the pagination laws), and holds them from then on like retrieved records:
 * every later command (deletions, their cascades, lists, details) is checked against them.
 */
import type { JsonObject } from '../../../../openapi/document/json.js';
import { fail } from '../rule.js';
import {
  ACCOUNTS,
  type LinkModel,
  type ModelRecord,
  type RecordCollection,
  storeRecords,
  TRANSACTIONS,
} from './link-model.js';
import type { ModelTarget } from './model-target.js';
import { referenceId } from './retrieve-records-commands.js';
import { walkList } from './walk-list.js';

/** The largest page (PAGE-MAX): a historical load holds thousands of transactions. */
const PAGE_SIZE = 1000;

function recordOf(record: JsonObject, collection: RecordCollection, link: string, what: string): ModelRecord {
  const account = collection === TRANSACTIONS ? referenceId(record.account) : null;
  if (
    typeof record.id !== 'string' ||
    referenceId(record.link) !== link ||
    (collection === TRANSACTIONS && !account)
  )
    fail(
      `${what}: a record ${JSON.stringify(record).slice(0, 200)} listed for link ${link} is not of that link`,
    );
  return { id: record.id, collection, link, account };
}

/** In the sandbox, the new link's accounts and transactions join the model as stored. */
export async function learnHistoricalRecords(
  model: LinkModel,
  target: ModelTarget,
  link: string,
  what: string,
) {
  if (target.environment !== 'sandbox') return;
  for (const collection of [ACCOUNTS, TRANSACTIONS] as const) {
    const listed = await walkList(
      target,
      collection,
      { link },
      PAGE_SIZE,
      `${what}: GET ${collection} (WEBHOOK-SANDBOX)`,
    );
    storeRecords(
      model,
      listed.map((record) => recordOf(record, collection, link, what)),
    );
  }
}
