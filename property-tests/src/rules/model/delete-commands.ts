/**
 * DeleteLink and DeleteAccount, synchronous: 204, then the link is gone with all its data
 * (LINK-DELETE-SYNC) or the account with its transactions (ACCOUNT-DELETE-CASCADE). DELETE-RATE-LIMIT:
 * per API key and collection, the 6th successful deletion within a sliding minute gets 429 and deletes
 * nothing. With a frozen clock the model knows the window exactly (run-setup.ts empties it before the
 * run); with a running one, deletions made before the run may count, so only a surely-full window is
 * checked.
 */
import type fc from 'fast-check';
import { expectStatus } from '../expect-response.js';
import {
  ACCOUNTS,
  deleteAccount,
  deleteLink,
  LINKS,
  type LimitedCollection,
  type LinkModel,
  pick,
} from './link-model.js';
import { type Moment, surelyPast, surelyWithin } from './model-clock.js';
import { type ModelTarget, tallyAnswer } from './model-target.js';

/** DELETE-RATE-LIMIT: 5 per 60 s (`x-rate-limit` of the document). */
export const DELETE_LIMIT = 5;
export const DELETE_WINDOW_MS = 60_000;

function expectation(
  model: LinkModel,
  collection: LimitedCollection,
  at: Moment,
): 'allowed' | 'limited' | 'either' {
  const hits = model.deletions[collection];
  if (hits.filter((hit) => surelyWithin(hit, at, DELETE_WINDOW_MS)).length >= DELETE_LIMIT) return 'limited';
  if (!model.clock.controlled) return 'either';
  const counted = hits.filter((hit) => !surelyPast(hit, at, DELETE_WINDOW_MS)).length;
  return counted < DELETE_LIMIT ? 'allowed' : 'either';
}

/** Sends a synchronous DELETE; true when the target deleted (204), false when it refused (429). */
async function deleteSync(
  model: LinkModel,
  target: ModelTarget,
  collection: LimitedCollection,
  id: string,
  command: string,
): Promise<boolean> {
  const url = `${collection}${encodeURIComponent(id)}/`;
  const [answer, at] = await model.clock.around(() => target.http.request({ method: 'DELETE', url }));
  tallyAnswer(target, command.slice(0, command.indexOf('(')), answer.status);
  const expected = expectation(model, collection, at);
  const hits = model.deletions[collection].filter((hit) => !surelyPast(hit, at, DELETE_WINDOW_MS)).length;
  const what = `${command}: DELETE ${url} after ${hits} deletion(s) in ${collection} within the model's minute`;
  if (expected === 'limited' || (expected === 'either' && answer.status === 429)) {
    expectStatus(answer, [429], `${what}: DELETE-RATE-LIMIT`);
    return false;
  }
  expectStatus(answer, [204], `${what}: ${collection === LINKS ? 'LINK-DELETE-SYNC' : 'DATA-DELETE'}`);
  model.deletions[collection].push(at);
  return true;
}

export class DeleteLinkCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(readonly linkIndex: number) {}

  check(model: LinkModel): boolean {
    return model.links.length > 0;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const link = pick(model.links, this.linkIndex)!;
    if (!(await deleteSync(model, target, LINKS, link.id, `${this}`))) return;
    deleteLink(model, link.id);
    // LINK-DELETE-SYNC: gone at once; its data is checked by the list and detail commands.
    const answer = await target.http.request({
      method: 'GET',
      url: `${LINKS}${encodeURIComponent(link.id)}/`,
    });
    expectStatus(answer, [404], `${this}: LINK-DELETE-SYNC: link ${link.id} after its 204`);
  }

  toString(): string {
    return `DeleteLink(link ${this.linkIndex})`;
  }
}

export class DeleteAccountCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(readonly accountIndex: number) {}

  check(model: LinkModel): boolean {
    return model.records.some((record) => record.collection === ACCOUNTS);
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const accounts = model.records.filter((record) => record.collection === ACCOUNTS);
    const account = pick(accounts, this.accountIndex)!;
    if (await deleteSync(model, target, ACCOUNTS, account.id, `${this}`)) deleteAccount(model, account.id);
  }

  toString(): string {
    return `DeleteAccount(account ${this.accountIndex})`;
  }
}
