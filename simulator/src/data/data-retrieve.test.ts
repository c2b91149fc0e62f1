import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import {
  ANSWERS_ONE,
  type LinkKind,
  RETRIEVALS,
  recordsOf,
  registerLink,
  retrieve,
} from '../../test-support/test-links.js';

let sim: CheckedSimulator;
const links = new Map<LinkKind, string>();
beforeAll(async () => {
  sim = await contractCheckedSimulator();
  for (const kind of new Set(RETRIEVALS.map((r) => r.kind))) links.set(kind, await registerLink(sim, kind));
});

describe('DATA-RETRIEVE', () => {
  it('every data operation of the document has a stateful handler (none falls back to Prism)', () => {
    const dataOperations = /^(list|retrieve|resume|get|delete)(?!Link|Institution|Consent|ApiRoot)/;
    const fallback = sim.simulator.unservedOperations.filter((id) => dataOperations.test(id));
    expect(
      fallback.filter((id) => !/Payment|Customer|BankAccount|Charge|Enrollment|Intent/.test(id)),
    ).toEqual([]);
  });

  describe.each(RETRIEVALS)('$path', ({ path, kind, body }) => {
    it('POST 201 with the records (the one record where the provider answers one), then the list and the detail show them', async () => {
      const link = links.get(kind)!;
      const created = await retrieve(sim, path, link, body);
      expect(created.status).toBe(201);
      expect(Array.isArray(created.body)).toBe(!ANSWERS_ONE.has(path));
      const records = recordsOf(created.body);
      expect(records.length).toBeGreaterThan(0);
      for (const record of records) expect(record.link).toBe(link);
      const list = await sim.call('GET', path, { query: { link, page_size: 1000 } });
      expect(list.status).toBe(200);
      const listed = new Set(list.body.results.map((r: { id: string }) => r.id));
      for (const record of records) expect(listed.has(record.id)).toBe(true);
      const first = records[0];
      const detail = await sim.call('GET', `${path}${first.id}/`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(first);
    });

    it('retrieved again, the records keep their ids and the list holds each once', async () => {
      const link = links.get(kind)!;
      const ids = async () => recordsOf((await retrieve(sim, path, link, body)).body).map((r) => r.id);
      const first = await ids();
      expect(await ids()).toEqual(first);
      const list = await sim.call('GET', path, { query: { link, page_size: 1000 } });
      const listed: string[] = list.body.results.map((r: { id: string }) => r.id);
      expect(new Set(listed).size).toBe(listed.length);
      for (const id of first) expect(listed).toContain(id);
    });
  });

  it('retrieving again returns the same records (same ids), replacing them in the store', async () => {
    const link = links.get('bank')!;
    const first = await retrieve(sim, '/api/transactions/', link, {
      date_from: '2026-09-01',
      date_to: '2026-09-30',
    });
    const again = await retrieve(sim, '/api/transactions/', link, {
      date_from: '2026-09-01',
      date_to: '2026-09-30',
    });
    expect(again.body.map((r: { id: string }) => r.id)).toEqual(first.body.map((r: { id: string }) => r.id));
    const listed = await sim.call('GET', '/api/transactions/', {
      query: { link, value_date__range: '2026-09-01,2026-09-30', page_size: 1000 },
    });
    expect(listed.body.count).toBe(first.body.length);
  });

  it('a period holds the same records whatever range asked for it, and the records stay inside the range', async () => {
    const link = links.get('bank')!;
    const whole = await retrieve(sim, '/api/transactions/', link, {
      date_from: '2026-06-01',
      date_to: '2026-07-31',
    });
    const june = await retrieve(sim, '/api/transactions/', link, {
      date_from: '2026-06-01',
      date_to: '2026-06-30',
    });
    const juneIds = june.body.map((r: { id: string }) => r.id);
    const wholeJune = whole.body.filter((r: { value_date: string }) => r.value_date <= '2026-06-30');
    expect(wholeJune.map((r: { id: string }) => r.id).sort()).toEqual([...juneIds].sort());
    for (const r of whole.body)
      expect(r.value_date >= '2026-06-01' && r.value_date <= '2026-07-31').toBe(true);
    // Monthly bills: a range that cuts months keeps only the bills dated inside it.
    const year = await retrieve(sim, '/api/bills/', link, { date_from: '2026-01-01', date_to: '2026-10-31' });
    const dates = year.body.map((b: { bill_date: string }) => b.bill_date);
    const cut = await retrieve(sim, '/api/bills/', link, {
      date_from: `${dates[2]}`,
      date_to: `${dates[4]}`,
    });
    expect(cut.body.map((b: { bill_date: string }) => b.bill_date)).toEqual(dates.slice(2, 5));
    const inside = await retrieve(sim, '/api/bills/', link, {
      date_from: next(dates[2]),
      date_to: next(dates[3]),
    });
    expect(inside.body.map((b: { bill_date: string }) => b.bill_date)).toEqual([dates[3]]);
  });

  it('the same seed gives the same link the same data; another link of the same kind other data', async () => {
    const other = await contractCheckedSimulator();
    const mine = await retrieve(sim, '/api/accounts/', links.get('bank')!);
    const replayLink = await registerLink(other, 'bank');
    expect(replayLink).toBe(links.get('bank'));
    const replay = await retrieve(other, '/api/accounts/', replayLink);
    expect(replay.body.map((r: { id: string }) => r.id)).toEqual(mine.body.map((r: { id: string }) => r.id));
    const second = await retrieve(sim, '/api/accounts/', await registerLink(sim, 'bank'));
    expect(second.body[0].id).not.toBe(mine.body[0].id);
  });

  it('transactions belong to the accounts of the link, which the retrieval stores too', async () => {
    const link = await registerLink(sim, 'bank');
    const transactions = await retrieve(sim, '/api/transactions/', link, {
      date_from: '2026-10-01',
      date_to: '2026-10-31',
    });
    const accounts = await sim.call('GET', '/api/accounts/', { query: { link } });
    const accountIds = accounts.body.results.map((a: { id: string }) => a.id);
    expect(accounts.body.results.map((a: { category: string }) => a.category)).toEqual([
      'CHECKING_ACCOUNT',
      'SAVINGS_ACCOUNT',
      'CREDIT_CARD',
    ]);
    // The provider nests the whole account in each transaction: the stored account, member for member.
    for (const t of transactions.body) expect(accounts.body.results).toContainEqual(t.account);
    const one = await retrieve(sim, '/api/transactions/', link, {
      account: accountIds[1],
      ...{ date_from: '2026-10-01', date_to: '2026-10-31' },
    });
    expect(new Set(one.body.map((t: { account: { id: string } }) => t.account.id))).toEqual(
      new Set([accountIds[1]]),
    );
  });

  it('invoices: `type: null` (the provider accepts it) retrieves both directions', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const range = { date_from: '2026-07-01', date_to: '2026-10-31' };
    const both = await retrieve(sim, '/api/invoices/', link, { ...range, type: null });
    expect(both.status).toBe(201);
    expect(new Set(both.body.map((invoice: { type: string }) => invoice.type))).toEqual(
      new Set(['INFLOW', 'OUTFLOW']),
    );
  });

  it("incomes and risk insights name the link's own accounts", async () => {
    const link = await registerLink(sim, 'bank');
    const income = (await retrieve(sim, '/api/incomes/', link, {})).body;
    const [insight] = (await retrieve(sim, '/api/risk-insights/', link, {})).body;
    const accounts = (await sim.call('GET', '/api/accounts/', { query: { link } })).body.results;
    const idsOf = (categories: string[]) =>
      accounts
        .filter((a: { category: string }) => categories.includes(a.category))
        .map((a: { id: string }) => a.id);
    expect(insight.accounts).toEqual(idsOf(['CHECKING_ACCOUNT', 'SAVINGS_ACCOUNT', 'CREDIT_CARD']));
    const streamAccounts = income.income_streams.map((stream: { account_id: string }) => stream.account_id);
    expect(streamAccounts.length).toBeGreaterThan(0);
    for (const id of streamAccounts) expect(idsOf(['CHECKING_ACCOUNT', 'SAVINGS_ACCOUNT'])).toContain(id);
  });

  it('recurring expenses nest the stored account they leave from, and their amounts agree', async () => {
    const link = await registerLink(sim, 'bank');
    const expenses = await retrieve(sim, '/api/recurring-expenses/', link, {});
    const accounts = await sim.call('GET', '/api/accounts/', { query: { link } });
    expect(expenses.body.length).toBeGreaterThan(0);
    for (const expense of expenses.body) {
      expect(accounts.body.results).toContainEqual(expense.account);
      const amounts = expense.transactions
        .map((t: { amount: number }) => t.amount)
        .sort((a: number, b: number) => a - b);
      expect(expense.median_transaction_amount).toBe(amounts[Math.floor(amounts.length / 2)]);
      const mean = amounts.reduce((sum: number, a: number) => sum + a, 0) / amounts.length;
      expect(Math.abs(expense.average_transaction_amount - mean)).toBeLessThan(0.02);
    }
  });
});

/** The day after a `YYYY-MM-DD` date. */
const next = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
