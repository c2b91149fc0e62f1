/**
 * The provider's comparison filters (`__gt`, `__gte`, `__lt`, `__lte`), applied by the one list machine
 * from the parameters the document declares: every bound filter of these lists is exercised with a
 * value its records hold, and must answer exactly what filtering the whole list client-side gives.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../openapi/document/json.js';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { LAST_MONTH, registerLink, retrieve } from '../../test-support/test-links.js';
import { fieldValue } from '../pipeline/lists/list-filters.js';

type Row = Record<string, unknown> & { id: string };
let sim: CheckedSimulator;
const linkOf: Record<string, string> = {};
beforeAll(async () => {
  sim = await contractCheckedSimulator('list-bounds');
  const bank = await registerLink(sim, 'bank');
  await retrieve(sim, '/api/accounts/', bank, {});
  await retrieve(sim, '/api/transactions/', bank, LAST_MONTH);
  const fiscal = await registerLink(sim, 'mxFiscal');
  await retrieve(sim, '/api/invoices/', fiscal, { ...LAST_MONTH, type: 'INFLOW' });
  Object.assign(linkOf, { '/api/accounts/': bank, '/api/transactions/': bank, '/api/invoices/': fiscal });
});

const BOUND = /__(gt|gte|lt|lte)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The bound filters the document declares on the list at `path`. */
function boundParams(path: string): string[] {
  const document = sim.simulator.document;
  const operation = ((document.paths as JsonObject)[path] as JsonObject).get as JsonObject;
  const parameters = (document.components as JsonObject).parameters as JsonObject;
  return (operation.parameters as JsonObject[])
    .map((p) => (typeof p.$ref === 'string' ? (parameters[p.$ref.split('/').pop()!] as JsonObject) : p))
    .map((p) => String(p.name))
    .filter((name) => BOUND.test(name));
}

function comparable(value: unknown, bound: string): number {
  if (DATE.test(bound)) {
    const day = String(value).slice(0, 10);
    return day < bound ? -1 : day > bound ? 1 : 0;
  }
  return Number(value) - Number(bound);
}

function keeps(record: Row, param: string, bound: string): boolean {
  const [, op] = BOUND.exec(param)!;
  const value = fieldValue(record, param.replace(BOUND, ''));
  if (value === null || value === undefined) return false;
  const order = comparable(value, bound);
  return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0;
}

async function whole(path: string, query: Record<string, string> = {}): Promise<Row[]> {
  const answer = await sim.call('GET', path, { query: { link: linkOf[path]!, page_size: 1000, ...query } });
  expect(answer.status).toBe(200);
  return answer.body.results;
}

describe.each(['/api/accounts/', '/api/transactions/', '/api/invoices/'])('bound filters of %s', (path) => {
  it('declares the provider bounds, each on a member its records carry', async () => {
    const params = boundParams(path);
    expect(params.length).toBeGreaterThanOrEqual(8);
    const records = await whole(path);
    expect(records.length).toBeGreaterThan(1);
    for (const param of params) {
      const field = param.replace(BOUND, '');
      expect(
        records.some((r) => fieldValue(r, field) !== undefined),
        `${path} ${field}`,
      ).toBe(true);
    }
  });

  it('each bound answers what filtering the whole list gives (a median value of the records)', async () => {
    const records = await whole(path);
    for (const param of boundParams(path)) {
      const field = param.replace(BOUND, '');
      const values = records
        .map((r) => fieldValue(r, field))
        .filter((v) => v !== null && v !== undefined)
        .map((v) => (typeof v === 'number' ? String(v) : String(v).slice(0, 10)))
        .sort((a, b) => (DATE.test(a) ? a.localeCompare(b) : Number(a) - Number(b)));
      const bound = values[Math.floor(values.length / 2)]!;
      const expected = records.filter((r) => keeps(r, param, bound)).map((r) => r.id);
      const got = (await whole(path, { [param]: bound })).map((r) => r.id);
      expect(got, `${path}?${param}=${bound}`).toEqual(expected);
    }
  });
});

describe('bound semantics', () => {
  it('a date bound compares the date part, so __gte and __lte together equal __range', async () => {
    const path = '/api/transactions/';
    const both = await whole(path, { value_date__gte: '2026-10-10', value_date__lte: '2026-10-20' });
    const range = await whole(path, { value_date__range: '2026-10-10,2026-10-20' });
    expect(both.map((r) => r.id)).toEqual(range.map((r) => r.id));
    expect(both.length).toBeGreaterThan(0);
  });

  it('a date-time bound compares instants', async () => {
    const records = await whole('/api/transactions/');
    const instant = String(records[0]!.created_at);
    const after = await whole('/api/transactions/', { created_at__gt: instant });
    const expected = records.filter((r) => Date.parse(String(r.created_at)) > Date.parse(instant));
    expect(after.map((r) => r.id)).toEqual(expected.map((r) => r.id));
  });

  it('a nested member is reached through `__` (balance__current of accounts)', async () => {
    const accounts = await whole('/api/accounts/');
    const current = (accounts[0]!.balance as { current: number }).current;
    const exact = await whole('/api/accounts/', { balance__current: String(current) });
    expect(exact.map((r) => r.id)).toContain(accounts[0]!.id);
  });

  it('a number bound that is no number matches no record (the provider takes it); a date bound that is no date is 400', async () => {
    const link = linkOf['/api/transactions/']!;
    const none = await sim.call('GET', '/api/transactions/', { query: { link, amount__gt: 'lots' } });
    expect(none.status).toBe(200);
    expect(none.body.count).toBe(0);
    // Rules on fields 3: dates in filters are `YYYY-MM-DD` (a difference the spec requires).
    const refused = await sim.call('GET', '/api/transactions/', { query: { link, value_date__gt: 'lots' } });
    expect(refused.status).toBe(400);
    expect(refused.body[0].field).toBe('value_date__gt');
  });
});
