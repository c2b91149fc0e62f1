/**
 * A SCHEMA row of a list or a retrieval needs a record: the coverage counts a record shown only from a
 * valid success answer holding one, and a row whose success answers were all empty lists is
 * inconclusive, unless the target's environment can never fill that list (a note then).
 */
import { describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import type { JsonValue } from '../../../openapi/document/json.js';
import type { HttpResponse } from '../http/http-client.js';
import { createCoverageRecorder } from './coverage.js';
import type { RuleResult } from './run-rule.js';
import { NO_RECORDS, settleSchemaRows } from './schema-evidence.js';

const document = loadApiDocument();
const operations = document.operations.filter((op) =>
  ['listAccounts', 'retrieveAccounts', 'getAccount'].includes(op.operationId),
);
const ACCOUNT = {
  id: '0d3ffb69-f83b-456e-ad8e-208d0998d71d',
  link: '30cb4806-6e00-48a4-91c9-ca55968576c8',
  institution: { name: 'ofbank_br_retail', type: 'bank' },
  collected_at: '2026-11-02T12:00:00.000Z',
  created_at: '2026-11-02T12:00:00.000Z',
  category: 'CHECKING_ACCOUNT',
  type: 'Conta Corrente',
  name: 'Conta Corrente',
  number: '4321-5',
  balance: { current: 10, available: 10 },
  currency: 'BRL',
  public_identification_name: 'AGENCY/ACCOUNT',
  public_identification_value: '0001/4321-5',
  last_accessed_at: null,
  balance_type: 'ASSET',
  credit_data: null,
  loan_data: null,
  funds_data: null,
  receivables_data: null,
  bank_product_id: null,
  internal_identification: null,
};
const page = (results: JsonValue[]) => ({ count: results.length, next: null, previous: null, results });

function answer(status: number, json: JsonValue): HttpResponse {
  const text = JSON.stringify(json);
  return { status, headers: {}, contentType: 'application/json', text, json };
}

const row = (operationId: string): RuleResult => ({
  id: `SCHEMA:${operationId}`,
  title: '',
  area: 'schema',
  operationId,
  status: 'passed',
  runs: 2,
  durationMs: 1,
  reached: 2,
  notes: ['statuses seen: 200x2'],
});

function settled(answers: [string, string, HttpResponse][], emptyLists = new Map<string, string>()) {
  const coverage = createCoverageRecorder(document, operations);
  for (const [method, url, response] of answers) coverage.observe(method, url, response);
  const report = coverage.report();
  const ids = ['listAccounts', 'retrieveAccounts'];
  return { report, rows: settleSchemaRows(ids.map(row), report, emptyLists) };
}

describe('records as the evidence of a list or a retrieval', () => {
  it('empty pages and [] only: both rows inconclusive, their operations marked emptyListsOnly', () => {
    const { report, rows } = settled([
      ['GET', 'http://t/api/accounts/', answer(200, page([]))],
      ['POST', 'http://t/api/accounts/', answer(201, [])],
    ]);
    expect(report.perOperation.filter((op) => op.emptyListsOnly).map((op) => op.operationId)).toEqual([
      'listAccounts',
      'retrieveAccounts',
    ]);
    for (const result of rows) {
      expect(result.status).toBe('inconclusive');
      expect(result.reason).toMatch(new RegExp(`^${NO_RECORDS} \\(answered 20[01]x1\\)`));
    }
  });

  it('one valid answer with a record is enough, after any number of empty ones', () => {
    const { rows } = settled([
      ['GET', 'http://t/api/accounts/', answer(200, page([]))],
      ['GET', 'http://t/api/accounts/', answer(200, page([ACCOUNT]))],
      ['POST', 'http://t/api/accounts/', answer(201, [])],
      ['POST', 'http://t/api/accounts/', answer(200, [ACCOUNT])],
    ]);
    expect(rows.map((result) => result.status)).toEqual(['passed', 'passed']);
  });

  it('a record in an answer that breaks the schema shows nothing', () => {
    const { rows } = settled([
      ['GET', 'http://t/api/accounts/', answer(200, page([]))],
      ['GET', 'http://t/api/accounts/', answer(200, page([{ id: 'not an account' }]))],
    ]);
    expect(rows[0]).toMatchObject({ status: 'inconclusive', reason: expect.stringMatching(NO_RECORDS) });
  });

  it('a list the environment can never fill passes on its empty pages, with the reason as a note', () => {
    const why = 'nothing creates accounts here';
    const { rows } = settled(
      [['GET', 'http://t/api/accounts/', answer(200, page([]))]],
      new Map([['listAccounts', why]]),
    );
    expect(rows[0]).toMatchObject({ status: 'passed' });
    expect(rows[0]!.notes).toContain(`no record to check in this environment: ${why}`);
  });

  it('an operation that is no list needs no record', () => {
    const coverage = createCoverageRecorder(document, operations);
    coverage.observe('GET', `http://t/api/accounts/${ACCOUNT.id}/`, answer(200, ACCOUNT));
    const op = coverage.report().perOperation.find((entry) => entry.operationId === 'getAccount');
    expect(op).toMatchObject({ success: true, emptyListsOnly: false });
  });
});
