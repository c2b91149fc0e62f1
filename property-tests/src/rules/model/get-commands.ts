/**
 * GetLink and GetRecord: the detail of a live link equals the model's; of a live record it names the
 * record's link (and account). A deleted link (LINK-DELETE-SYNC), a record deleted with its link or its
 * account (ACCOUNT-DELETE-CASCADE) or on its own (DATA-DELETE) answers 404 (ERR-404).
 */
import type fc from 'fast-check';
import { isObject } from '../../../../openapi/document/json.js';
import { describeAnswer, expectStatus } from '../expect-response.js';
import { fail } from '../rule.js';
import { expectDetail, readLink } from './link-detail.js';
import {
  ACCOUNTS,
  type GoneRecord,
  knownLinkIds,
  LINKS,
  type LinkModel,
  type ModelRecord,
  pick,
  type RecordCollection,
} from './link-model.js';
import { type ModelTarget, tallyAnswer } from './model-target.js';
import { referenceId } from './retrieve-records-commands.js';

export class GetLinkCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(readonly linkIndex: number) {}

  check(model: LinkModel): boolean {
    return knownLinkIds(model).length > 0;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const id = pick(knownLinkIds(model), this.linkIndex)!;
    const answer = await target.http.request({ method: 'GET', url: `${LINKS}${encodeURIComponent(id)}/` });
    tallyAnswer(target, 'GetLink', answer.status);
    const link = model.links.find((candidate) => candidate.id === id);
    if (!link) {
      expectStatus(answer, [404], `${this}: LINK-DELETE-SYNC: link ${id} was deleted`);
      return;
    }
    expectStatus(answer, [200], `${this}: link ${id}`);
    expectDetail(link.detail, readLink(answer, `${this}`).detail, `${this}: link ${id}`);
  }

  toString(): string {
    return `GetLink(link ${this.linkIndex})`;
  }
}

/** Live records first, then deleted ones, of one collection. */
const knownRecords = (model: LinkModel, collection: RecordCollection): (ModelRecord | GoneRecord)[] =>
  [...model.records, ...model.goneRecords].filter((record) => record.collection === collection);

export class GetRecordCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(
    readonly collection: RecordCollection,
    readonly recordIndex: number,
  ) {}

  check(model: LinkModel): boolean {
    return knownRecords(model, this.collection).length > 0;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const record = pick(knownRecords(model, this.collection), this.recordIndex)!;
    const url = `${this.collection}${encodeURIComponent(record.id)}/`;
    const answer = await target.http.request({ method: 'GET', url });
    tallyAnswer(target, this.collection === ACCOUNTS ? 'GetAccount' : 'GetTransaction', answer.status);
    const what = `${this}: ${this.collection}${record.id}/`;
    if ('because' in record) {
      expectStatus(answer, [404], `${what}: ${record.because}`);
      return;
    }
    expectStatus(answer, [200], `${what}: DATA-DETAIL`);
    const body = answer.json;
    const matches =
      isObject(body) &&
      body.id === record.id &&
      referenceId(body.link) === record.link &&
      (record.account === null || referenceId(body.account) === record.account);
    if (!matches) fail(`${what}: wanted the record of link ${record.link}, got ${describeAnswer(answer)}`);
  }

  toString(): string {
    const name = this.collection === ACCOUNTS ? 'GetAccount' : 'GetTransaction';
    return `${name}(record ${this.recordIndex})`;
  }
}
