/**
 * The provider's filter lookups beyond FILTER-IN and FILTER-RANGE, through real requests: exact match on
 * a date-time member by day, `__not_in`, `__icontains`, `__allin`, and the filters whose provider name
 * is not our member path (`x-filter`: `country_code`, `ejercicio`, `account_type`, `account_in`...).
 * Each answer is compared with filtering the whole list client-side; a value the provider would take
 * but that names nothing (a number filter that is no number, a country code of no country) matches no
 * record, never a 400.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../../test-support/contract-checked-simulator.js';
import { LAST_MONTH, registerLink, retrieve } from '../../../test-support/test-links.js';
import { filterRecords, filterSpecOf } from './list-filters.js';

type Row = Record<string, unknown> & { id: string };
let sim: CheckedSimulator;
let bank: string;
let fiscal: string;

beforeAll(async () => {
  sim = await contractCheckedSimulator('list-lookups');
  bank = await registerLink(sim, 'bank');
  fiscal = await registerLink(sim, 'mxFiscal');
  await retrieve(sim, '/api/accounts/', bank);
  await retrieve(sim, '/api/transactions/', bank, LAST_MONTH);
  await retrieve(sim, '/api/recurring-expenses/', bank);
  await retrieve(sim, '/api/tax-returns/', fiscal, { year_from: 2024, year_to: 2026 });
});

async function list(path: string, query: Record<string, string> = {}): Promise<Row[]> {
  const answer = await sim.call('GET', path, { query: { page_size: 1000, ...query } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.results;
}
const ids = (rows: Row[]) => rows.map((row) => row.id);

/** Asserts the filtered list is exactly the records of the whole list that `keeps`, and neither all nor none. */
async function narrows(
  path: string,
  base: Record<string, string>,
  filter: Record<string, string>,
  keeps: (r: Row) => boolean,
) {
  const whole = await list(path, base);
  const expected = ids(whole.filter(keeps));
  expect(expected.length, `${path} ${JSON.stringify(filter)} keeps some`).toBeGreaterThan(0);
  expect(expected.length, `${path} ${JSON.stringify(filter)} drops some`).toBeLessThan(whole.length);
  expect(ids(await list(path, { ...base, ...filter }))).toEqual(expected);
}

describe('FILTER-LOOKUP: lookups by name', () => {
  it('reads the lookup from the suffix and the member from the stem, unless x-filter says otherwise', () => {
    expect(filterSpecOf('created_by__not_in')).toEqual({ member: 'created_by', lookup: 'not_in' });
    expect(filterSpecOf('account__balance__current__gte')).toEqual({
      member: 'account__balance__current',
      lookup: 'gte',
    });
    expect(filterSpecOf('resources__allin')).toEqual({ member: 'resources', lookup: 'allin' });
    expect(filterSpecOf('name__icontains')).toEqual({ member: 'name', lookup: 'icontains' });
    expect(filterSpecOf('refresh_rate')).toEqual({ member: 'refresh_rate', lookup: 'exact' });
    expect(filterSpecOf('account_in', { member: 'account', lookup: 'in' })).toEqual({
      member: 'account',
      lookup: 'in',
    });
  });

  it('__not_in keeps the records whose member is none of the values, and those without it', () => {
    const records = [
      { id: 'a', created_by: 'u1' },
      { id: 'b', created_by: 'u2' },
      { id: 'c', created_by: null },
      { id: 'd' },
    ];
    expect(ids(filterRecords(records, { created_by__not_in: 'u1,u3' }) as Row[])).toEqual(['b', 'c', 'd']);
  });

  it('numbers compare as numbers and a date asks for the day of a date-time member', () => {
    const records = [
      { id: 'a', balance: { current: 100.5 }, created_at: '2026-11-01T23:59:59.000Z' },
      { id: 'b', balance: { current: 7 }, created_at: '2026-11-02T00:00:00.000Z' },
    ];
    expect(ids(filterRecords(records, { balance__current: '100.50' }) as Row[])).toEqual(['a']);
    expect(ids(filterRecords(records, { created_at: '2026-11-02' }) as Row[])).toEqual(['b']);
    expect(ids(filterRecords(records, { created_at: '2026-11-01T23:59:59Z' }) as Row[])).toEqual(['a']);
  });
});

describe('FILTER-LOOKUP: institutions', () => {
  const path = '/api/institutions/';
  it('country_code matches one of `country_codes`; country_code__in one of several', async () => {
    await narrows(path, {}, { country_code: 'MX' }, (r) => (r.country_codes as string[]).includes('MX'));
    await narrows(path, {}, { country_code__in: 'BR,CL' }, (r) =>
      (r.country_codes as string[]).some((code) => code === 'BR' || code === 'CL'),
    );
  });

  it('display_name is a partial match ignoring case; website an exact one', async () => {
    const [first] = await list(path);
    const part = String(first!.display_name).slice(1, 5).toUpperCase();
    await narrows(path, {}, { display_name: part }, (r) =>
      String(r.display_name).toUpperCase().includes(part),
    );
    const sites = (await list(path)).filter((r) => typeof r.website === 'string');
    const site = String(sites[0]!.website);
    await narrows(path, {}, { website: site }, (r) => r.website === site);
  });

  it('resources__allin keeps the institutions offering every resource named', async () => {
    const all = ['ACCOUNTS', 'TRANSACTIONS'];
    await narrows(path, {}, { resources__allin: all.join(',') }, (r) =>
      all.every((resource) => (r.resources as string[]).includes(resource)),
    );
    const unknown = await list(path, { resources__allin: 'ACCOUNTS,NO_SUCH_RESOURCE' });
    expect(unknown).toEqual([]);
  });

  it('a country code no institution serves (the provider takes a free string) matches none', async () => {
    for (const country_code of ['mex', 'mx', 'ZZ']) {
      const answer = await sim.call('GET', path, { query: { country_code } });
      expect(answer.status, country_code).toBe(200);
      expect(answer.body.count, country_code).toBe(0);
    }
  });
});

describe('FILTER-LOOKUP: accounts', () => {
  const path = '/api/accounts/';
  it('institution and institution__in compare the institution name; name__icontains and type', async () => {
    const base = { link: bank };
    const whole = await list(path, base);
    expect(ids(await list(path, { ...base, institution: 'ofbank_br_retail' }))).toEqual(ids(whole));
    expect(await list(path, { ...base, institution__in: 'ofsat_mx_fiscal,other_bank' })).toEqual([]);
    const name = String(whole[0]!.name);
    const part = name.slice(0, 4).toLowerCase();
    const byName = await list(path, { ...base, name__icontains: part });
    expect(ids(byName)).toEqual(ids(whole.filter((r) => String(r.name).toLowerCase().includes(part))));
    expect(ids(await list(path, { ...base, name }))).toEqual(ids(whole.filter((r) => r.name === name)));
    const type = String(whole[0]!.type);
    expect(ids(await list(path, { ...base, type }))).toEqual(ids(whole.filter((r) => r.type === type)));
  });
});

describe('FILTER-LOOKUP: transactions, on the nested account and on days', () => {
  const path = '/api/transactions/';
  const account = (r: Row) => r.account as { id: string; type: string; balance: { current: number } };

  it('account_type and account__balance__current__gt walk into the transaction account', async () => {
    const base = { link: bank };
    const whole = await list(path, base);
    const types = [...new Set(whole.map((r) => account(r).type))];
    expect(types.length).toBeGreaterThan(1);
    await narrows(path, base, { account_type: types[0]! }, (r) => account(r).type === types[0]);
    await narrows(path, base, { account_type__in: types[1]! }, (r) => account(r).type === types[1]);
    const balances = [...new Set(whole.map((r) => account(r).balance.current))].sort((a, b) => a - b);
    const bound = balances[0]!;
    await narrows(
      path,
      base,
      { account__balance__current__gt: String(bound) },
      (r) => account(r).balance.current > bound,
    );
  });

  it('accounting_date, value_date and created_at match by day', async () => {
    const base = { link: bank };
    const whole = await list(path, base);
    const days = [...new Set(whole.map((r) => String(r.value_date)))].sort();
    const day = days[Math.floor(days.length / 2)]!;
    await narrows(path, base, { value_date: day }, (r) => r.value_date === day);
    const accounted = whole.find((r) => typeof r.accounting_date === 'string')!;
    const accountedDay = String(accounted.accounting_date).slice(0, 10);
    await narrows(path, base, { accounting_date: accountedDay }, (r) =>
      String(r.accounting_date ?? '').startsWith(accountedDay),
    );
    const created = String(whole[0]!.created_at).slice(0, 10);
    expect(ids(await list(path, { ...base, created_at: created }))).toEqual(
      ids(whole.filter((r) => String(r.created_at).startsWith(created))),
    );
    expect(await list(path, { ...base, created_at: '2001-01-01' })).toEqual([]);
  });

  it('a bound that is not a number (the provider takes a free string) matches no record', async () => {
    const queries: Record<string, string>[] = [
      { account__balance__current__gt: 'lots' },
      { account__balance__current: 'lots' },
      { account__balance__current__range: 'a,b' },
      { amount__lte: '' },
    ];
    for (const query of queries) {
      const answer = await sim.call('GET', path, { query: { link: bank, ...query } });
      expect(answer.status, JSON.stringify(query)).toBe(200);
      expect(answer.body.count, JSON.stringify(query)).toBe(0);
    }
  });
});

describe('FILTER-LOOKUP: provider names for our members (x-filter)', () => {
  it('ejercicio filters the fiscal year, tipo_declaracion the declaration type', async () => {
    const path = '/api/tax-returns/';
    const base = { link: fiscal };
    const whole = await list(path, base);
    const years = [...new Set(whole.map((r) => Number(r.year)))].sort();
    expect(years.length).toBeGreaterThan(1);
    await narrows(path, base, { ejercicio: String(years[0]) }, (r) => r.year === years[0]);
    await narrows(path, base, { ejercicio__gte: String(years[1]) }, (r) => Number(r.year) >= years[1]!);
    await narrows(path, base, { ejercicio__range: `${years[0]},${years[0]}` }, (r) => r.year === years[0]);
    const type = String(whole[0]!.declaration_type);
    expect(ids(await list(path, { ...base, tipo_declaracion: type }))).toEqual(
      ids(whole.filter((r) => r.declaration_type === type)),
    );
    // A year that is no number (the provider takes a free string) matches no return.
    const none = await sim.call('GET', path, { query: { link: fiscal, ejercicio: 'twenty' } });
    expect(none.status).toBe(200);
    expect(none.body.count).toBe(0);
  });

  it('account_in is the provider spelling of account__in', async () => {
    const path = '/api/recurring-expenses/';
    const whole = await list(path, { link: bank });
    // The expense's account: its id, or the nested account record (compared by its id).
    const accountOf = (r: Row) => String(typeof r.account === 'object' ? (r.account as Row).id : r.account);
    const accounts = [...new Set(whole.map(accountOf))];
    const kept = await list(path, { link: bank, account_in: accounts[0]! });
    expect(kept.length).toBeGreaterThan(0);
    expect(ids(kept)).toEqual(ids(whole.filter((r) => accountOf(r) === accounts[0])));
    expect(await list(path, { link: bank, account_in: '00000000-0000-4000-8000-000000000000' })).toEqual([]);
  });
});

describe('FILTER-LOOKUP through arrays', () => {
  it("incomes' `account` and `account__in` match any of the income's streams (the provider's filter)", async () => {
    await retrieve(sim, '/api/incomes/', bank);
    const [income] = await list('/api/incomes/', { link: bank });
    const streams = (income?.income_streams ?? []) as { account_id: string }[];
    expect(streams.length).toBeGreaterThan(0);
    const account = streams[0]!.account_id;
    const elsewhere = '00000000-0000-4000-8000-000000000000';
    expect(ids(await list('/api/incomes/', { link: bank, account }))).toEqual([income!.id]);
    expect(await list('/api/incomes/', { link: bank, account: elsewhere })).toEqual([]);
    expect(ids(await list('/api/incomes/', { link: bank, account__in: `${elsewhere},${account}` }))).toEqual([
      income!.id,
    ]);
    expect(await list('/api/incomes/', { link: bank, account__in: elsewhere })).toEqual([]);
  });
});
