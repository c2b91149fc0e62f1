/**
 * ListLinks and ListRecords: the whole list, walked page by page under the pagination laws (PAGE-NAV),
 * holds exactly the model's ids. Links are listed by the run's `external_id`, so only the run's count;
 * records by `link`, for live links and deleted ones (LINK-DELETE-SYNC: lists empty).
 */
import type fc from 'fast-check';
import { fail } from '../rule.js';
import { detailDifferences, detailOf } from './link-detail.js';
import {
  ACCOUNTS,
  knownLinkIds,
  LINKS,
  type LinkModel,
  pick,
  type RecordCollection,
  recordsOf,
} from './link-model.js';
import { type ModelTarget, tallyAnswer } from './model-target.js';
import { expectSameIds, pageSizeFor, walkList } from './walk-list.js';

export class ListLinksCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(readonly pageSize: number) {}

  check(): boolean {
    return true;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const what = `${this}`;
    const pageSize = pageSizeFor(this.pageSize, model.links.length);
    const query = { external_id: target.externalId };
    const listed = await walkList(target, LINKS, query, pageSize, `${what}: GET ${LINKS}`);
    tallyAnswer(target, 'ListLinks', 200);
    expectSameIds(
      model.links.map((link) => link.id),
      listed.map((link) => String(link.id)),
      `${what}: the links of the run`,
    );
    for (const link of model.links) {
      const shown = listed.find((record) => record.id === link.id);
      const differences = shown ? detailDifferences(link.detail, detailOf(shown)) : [];
      if (differences.length > 0)
        fail(`${what}: link ${link.id} as listed differs from the model: ${differences.join('; ')}`);
    }
  }

  toString(): string {
    return `ListLinks(page_size ${this.pageSize})`;
  }
}

export class ListRecordsCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(
    readonly collection: RecordCollection,
    readonly linkIndex: number,
    readonly pageSize: number,
  ) {}

  check(model: LinkModel): boolean {
    return knownLinkIds(model).length > 0;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const link = pick(knownLinkIds(model), this.linkIndex)!;
    const what = `${this} of link ${link}${model.deletedLinks.includes(link) ? ' (deleted: LINK-DELETE-SYNC)' : ''}`;
    const expected = recordsOf(model, this.collection, link).map((record) => record.id);
    const pageSize = pageSizeFor(this.pageSize, expected.length);
    const listed = await walkList(
      target,
      this.collection,
      { link },
      pageSize,
      `${what}: GET ${this.collection}`,
    );
    tallyAnswer(target, this.collection === ACCOUNTS ? 'ListAccounts' : 'ListTransactions', 200);
    expectSameIds(
      expected,
      listed.map((record) => String(record.id)),
      `${what}: the stored records`,
    );
  }

  toString(): string {
    const name = this.collection === ACCOUNTS ? 'ListAccounts' : 'ListTransactions';
    return `${name}(link ${this.linkIndex}; page_size ${this.pageSize})`;
  }
}
