/**
 * ACCOUNT-DELETE-CASCADE: on a link of its own, the rule retrieves accounts, owners and transactions
 * (a generated date range), deletes one account (204) and then finds: the account gone (404), none of
 * its transactions listed while the other accounts' transactions stay, and its owner information gone.
 * Owner records name no account (the owner owns every account of the link, interface spec "Core
 * concepts"), so the account's owner information is the link's owner records, unless the target's owner
 * records carry an `account`, in which case only those naming the account must go.
 */
import fc from 'fast-check';
import type { JsonObject } from '../../../../openapi/document/json.js';
import { ACCOUNTS, OWNERS, TRANSACTIONS } from '../../../../openapi/http/api-paths.js';
import { expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext, skip } from '../rule.js';
import { byPath, type Reachable, reachableResources } from './reachable.js';
import { type DeleteStats, deleteRecord, idOf, itemUrl, listByLink, rateLimitNote } from './records.js';
import { type RangeChoice, retrievalBody, retrieveRecords } from './retrieval.js';

/** The account a record belongs to: its `account` id, or the id of the account record nested there. */
function accountOf(record: JsonObject): unknown {
  const account = record.account;
  return typeof account === 'object' && account !== null && !Array.isArray(account) ? account.id : account;
}

interface Input {
  /** Which account to delete (modulo the number of accounts with transactions). */
  pick: number;
  range: RangeChoice;
}

interface Fixture {
  reachable: Reachable[];
  stats: DeleteStats;
}

/** Retrieves the three resources for the link (one link: one fixture kind); what the rule compares. */
async function retrieveAll(run: RunContext, reachable: Reachable[], range: RangeChoice) {
  const retrieve = (path: string, choice = {}) => {
    const { resource, link, today } = byPath(reachable, path);
    return retrieveRecords(run, resource, retrievalBody(resource, link, today, choice));
  };
  const accounts = await retrieve(ACCOUNTS);
  await retrieve(OWNERS);
  await retrieve(TRANSACTIONS, { range });
  const { link } = byPath(reachable, ACCOUNTS);
  return {
    link,
    accounts,
    transactions: await listByLink(run.http, TRANSACTIONS, link),
    owners: await listByLink(run.http, OWNERS, link),
  };
}

function checkTransactions(account: string, before: JsonObject[], after: JsonObject[], link: string): void {
  const left = after.filter((transaction) => accountOf(transaction) === account).map(idOf);
  if (left.length > 0)
    fail(
      `GET ${TRANSACTIONS}?link=${link} still lists transactions of the deleted account ${account}: ${left.slice(0, 5).join(', ')}`,
    );
  const kept = new Set(after.map(idOf));
  const lost = before.filter((t) => accountOf(t) !== account && !kept.has(idOf(t))).map(idOf);
  if (lost.length > 0)
    fail(
      `deleting account ${account} also removed transactions of other accounts: ${lost.slice(0, 5).join(', ')}`,
    );
}

function checkOwners(account: string, before: JsonObject[], after: JsonObject[], link: string): void {
  const perAccount = before.some((owner) => 'account' in owner);
  const ownersOfAccount = perAccount ? before.filter((owner) => accountOf(owner) === account) : before;
  const gone = new Set(ownersOfAccount.map(idOf));
  const left = after.map(idOf).filter((id) => gone.has(id));
  if (left.length > 0)
    fail(
      `GET ${OWNERS}?link=${link} still lists the owner information of the deleted account ${account}: ${left.join(', ')}`,
    );
}

export const accountDeleteCascade = defineRule<Input, Fixture>({
  id: 'ACCOUNT-DELETE-CASCADE',
  area: 'data',
  operations: ['retrieveAccounts', 'deleteAccount', 'listTransactions', 'listOwners'],
  tenantWide: 'clock',
  runs: 6,
  async prepare(suite, note) {
    const wanted = [ACCOUNTS, TRANSACTIONS, OWNERS];
    const reachable = await reachableResources(suite, note, {
      keep: (resource) => wanted.includes(resource.path),
      fresh: true,
    });
    const accounts = reachable.find((entry) => entry.resource.path === ACCOUNTS);
    if (reachable.length < wanted.length || !accounts?.resource.remove) {
      return skip(`needs the retrievals of ${wanted.join(', ')} and DELETE ${ACCOUNTS}{id}/`);
    }
    return { reachable, stats: { rateLimited: 0 } };
  },
  arbitrary: () =>
    fc.record({
      pick: fc.nat(),
      range: fc.record({ back: fc.integer({ min: 0, max: 30 }), span: fc.integer({ min: 0, max: 30 }) }),
    }),
  async check({ pick, range }, run, { reachable, stats }) {
    const before = await retrieveAll(run, reachable, range);
    const withTransactions = before.accounts.filter((a) =>
      before.transactions.some((t) => accountOf(t) === a.id),
    );
    const pool = withTransactions.length > 0 ? withTransactions : before.accounts;
    const account = pool[pick % Math.max(pool.length, 1)];
    if (!account) fail(`POST ${ACCOUNTS} returned no account for link ${before.link}`);
    const url = itemUrl(ACCOUNTS, idOf(account));
    const remove = byPath(reachable, ACCOUNTS).resource.remove!;
    expectStatus(await deleteRecord(run, remove, url, stats), [204], `DELETE ${url}`);
    expectStatus(await run.http.request({ method: 'GET', url }), [404], `GET ${url} after its DELETE`);
    const transactions = await listByLink(run.http, TRANSACTIONS, before.link);
    checkTransactions(idOf(account), before.transactions, transactions, before.link);
    checkOwners(idOf(account), before.owners, await listByLink(run.http, OWNERS, before.link), before.link);
  },
  summarize: ({ stats }) => rateLimitNote(stats),
});
