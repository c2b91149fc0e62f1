/**
 * RetrieveAccounts and RetrieveTransactions: POST on the collection with `link` fetches the link's records
 * from the institution and answers 201 with them (DATA-RETRIEVE), or 428 first when the institution asks
 * for a token (LINK-MFA-428, resumed with PATCH). The model then holds them as stored for the link.
 */
import type fc from 'fast-check';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import { fail } from '../rule.js';
import {
  ACCOUNTS,
  type LinkModel,
  type ModelRecord,
  pick,
  type RecordCollection,
  recordsOf,
  storeRecords,
  TRANSACTIONS,
  transactionsRetrievable,
} from './link-model.js';
import { finalAnswer, postResumable } from './mfa-continuation.js';
import { type ModelTarget, tallyAnswer } from './model-target.js';

/** Days of transactions a retrieval asks for (a short range keeps lists small). */
const TRANSACTION_DAYS = 14;

/** The id a reference holds: a string, or an object with an `id`. */
export const referenceId = (value: JsonValue | undefined) =>
  isObject(value) ? String(value.id) : typeof value === 'string' ? value : null;

async function retrieve(
  target: ModelTarget,
  collection: RecordCollection,
  body: JsonObject,
  what: string,
): Promise<JsonObject[]> {
  const answer = await postResumable(target, collection, body, what);
  tallyAnswer(
    target,
    collection === ACCOUNTS ? 'RetrieveAccounts' : 'RetrieveTransactions',
    answer.first.status,
  );
  expectStatus(answer.first, [201, 428], `${what}: DATA-RETRIEVE`);
  if (answer.resumed)
    expectStatus(answer.resumed, [200, 201], `${what}: LINK-MFA-428: resuming with the token`);
  const records = finalAnswer(answer).json;
  if (!Array.isArray(records))
    fail(`${what}: wanted the list of records, got ${describeAnswer(finalAnswer(answer))}`);
  return records.filter(isObject);
}

/** The records as the model holds them; each must belong to the link (and account) asked for. */
function modelRecords(
  records: JsonObject[],
  collection: RecordCollection,
  link: string,
  account: string | null,
  what: string,
): ModelRecord[] {
  return records.map((record) => {
    const owner = referenceId(record.link);
    const holder = collection === TRANSACTIONS ? referenceId(record.account) : null;
    if (typeof record.id !== 'string' || owner !== link || holder !== account) {
      fail(
        `${what}: a record ${JSON.stringify(record).slice(0, 200)} is not of link ${link}${account ? ` and account ${account}` : ''}`,
      );
    }
    return { id: record.id, collection, link, account };
  });
}

export class RetrieveAccountsCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(readonly linkIndex: number) {}

  check(model: LinkModel): boolean {
    return model.links.length > 0;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const link = pick(model.links, this.linkIndex)!;
    const what = `${this} on link ${link.id}`;
    const records = await retrieve(target, ACCOUNTS, { link: link.id }, what);
    storeRecords(model, modelRecords(records, ACCOUNTS, link.id, null, what));
  }

  toString(): string {
    return `RetrieveAccounts(link ${this.linkIndex})`;
  }
}

/** `today` minus `days`, as `YYYY-MM-DD`. */
function daysBefore(today: string, days: number): string {
  return new Date(Date.parse(`${today}T00:00:00.000Z`) - days * 86_400_000).toISOString().slice(0, 10);
}

export class RetrieveTransactionsCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(
    readonly linkIndex: number,
    readonly accountIndex: number,
  ) {}

  check(model: LinkModel): boolean {
    return model.links.some((link) => transactionsRetrievable(model, link.id));
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const links = model.links.filter((link) => transactionsRetrievable(model, link.id));
    const link = pick(links, this.linkIndex)!;
    const account = pick(recordsOf(model, ACCOUNTS, link.id), this.accountIndex)!;
    const what = `${this} on link ${link.id}, account ${account.id}`;
    const body = {
      link: link.id,
      account: account.id,
      date_from: daysBefore(target.today, TRANSACTION_DAYS),
      date_to: target.today,
    };
    const records = await retrieve(target, TRANSACTIONS, body, what);
    storeRecords(model, modelRecords(records, TRANSACTIONS, link.id, account.id, what));
  }

  toString(): string {
    return `RetrieveTransactions(link ${this.linkIndex}; account ${this.accountIndex})`;
  }
}
