/**
 * The explicit model of one run: the tenant's links registered in this run, the records of each link the
 * run retrieved (accounts and transactions), what was deleted (for the 404s of LINK-DELETE-SYNC and
 * ACCOUNT-DELETE-CASCADE), the refresh of each link (LINK-REFRESH-COOLDOWN) and the synchronous deletions
 * per collection (DELETE-RATE-LIMIT). Commands read it in `check` and change it in `run`, after the
 * target answered as the model said it would.
 */

import { ACCOUNTS, LINKS, TRANSACTIONS } from '../../../../openapi/http/api-paths.js';
import type { ModelClock, Moment } from './model-clock.js';

export { ACCOUNTS, LINKS, TRANSACTIONS };

export type RecordCollection = typeof ACCOUNTS | typeof TRANSACTIONS;
/** The collections whose synchronous deletions are limited (DELETE-RATE-LIMIT). */
export type LimitedCollection = typeof LINKS | typeof ACCOUNTS;

/** The fields of a link the model predicts (the rest, such as timestamps, it does not). */
export interface LinkDetail {
  institution: string;
  access_mode: string;
  status: string;
  external_id: string | null;
  stale_in: string | null;
  fetch_resources: string[];
}

export interface ModelLink {
  id: string;
  mfa: boolean;
  detail: LinkDetail;
  /** `fetch_resources` as registered: what the institution offers (PatchLink picks subsets). */
  offered: string[];
  /** The last accepted refresh (202), for LINK-REFRESH-COOLDOWN. */
  lastRefresh: Moment | null;
}

export interface ModelRecord {
  id: string;
  collection: RecordCollection;
  link: string;
  /** The account of a transaction; null for an account. */
  account: string | null;
}

export interface GoneRecord extends ModelRecord {
  /** The rule that made it go, for messages. */
  because: string;
}

export interface LinkModel {
  clock: ModelClock;
  /** Live links, oldest first. */
  links: ModelLink[];
  /** Links deleted in this run: detail 404, lists empty (LINK-DELETE-SYNC). */
  deletedLinks: string[];
  /** Records stored on the target for live links. */
  records: ModelRecord[];
  /** Records deleted, directly or with their link or account: detail 404, for the reason given. */
  goneRecords: GoneRecord[];
  /** Successful synchronous deletions per collection (DELETE-RATE-LIMIT). */
  deletions: Record<LimitedCollection, Moment[]>;
}

export function createModel(clock: ModelClock): LinkModel {
  return {
    clock,
    links: [],
    deletedLinks: [],
    records: [],
    goneRecords: [],
    deletions: { [LINKS]: [], [ACCOUNTS]: [] },
  };
}

/** `items[index % length]`, the way commands pick among what exists when they run. */
export function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[index % items.length];
}

/** Live and deleted link ids: lists and details are checked for both. */
export const knownLinkIds = (model: LinkModel) => [
  ...model.links.map((link) => link.id),
  ...model.deletedLinks,
];

export const recordsOf = (model: LinkModel, collection: RecordCollection, linkId: string) =>
  model.records.filter((record) => record.collection === collection && record.link === linkId);

/** Stores what a retrieval returned: new records join, records deleted before come back. */
export function storeRecords(model: LinkModel, retrieved: ModelRecord[]): void {
  const ids = new Set(retrieved.map((record) => record.id));
  model.goneRecords = model.goneRecords.filter((record) => !ids.has(record.id));
  const known = new Set(model.records.map((record) => record.id));
  model.records.push(...retrieved.filter((record) => !known.has(record.id)));
}

/** Moves the records `gone` picks from stored to deleted, `because` of a rule. */
function removeRecords(model: LinkModel, gone: (record: ModelRecord) => boolean, because: string): void {
  model.goneRecords.push(...model.records.filter(gone).map((record) => ({ ...record, because })));
  model.records = model.records.filter((record) => !gone(record));
}

/** LINK-DELETE-SYNC: the link and all its data are gone. */
export function deleteLink(model: LinkModel, linkId: string): void {
  model.links = model.links.filter((link) => link.id !== linkId);
  model.deletedLinks.push(linkId);
  removeRecords(model, (record) => record.link === linkId, `LINK-DELETE-SYNC: link ${linkId} was deleted`);
}

/** DATA-DELETE and ACCOUNT-DELETE-CASCADE: the account goes, and its transactions with it. */
export function deleteAccount(model: LinkModel, accountId: string): void {
  removeRecords(model, (record) => record.id === accountId, 'DATA-DELETE: it was deleted');
  const because = `ACCOUNT-DELETE-CASCADE: its account ${accountId} was deleted`;
  removeRecords(model, (record) => record.account === accountId, because);
}

/**
 * Whether a transactions retrieval of the link keeps the model exact: the model does not say whether
 * retrieving transactions stores the link's accounts again (an implementation may), so it retrieves
 * transactions only for links none of whose accounts were deleted.
 */
export const transactionsRetrievable = (model: LinkModel, linkId: string) =>
  recordsOf(model, ACCOUNTS, linkId).length > 0 &&
  !model.goneRecords.some((record) => record.collection === ACCOUNTS && record.link === linkId);
