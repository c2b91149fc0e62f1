import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { registerLink, retrieve } from '../../test-support/test-links.js';

let sim: CheckedSimulator;
let link: string;
/** A year of the link's transactions (more than 1000) and a year of its invoices. */
let transactions: { id: string; value_date: string; amount: number; type: string; account: { id: string } }[];
let fiscal: string;
beforeAll(async () => {
  sim = await contractCheckedSimulator();
  link = await registerLink(sim, 'bank');
  transactions = (
    await retrieve(sim, '/api/transactions/', link, { date_from: '2025-11-01', date_to: '2026-10-31' })
  ).body;
  fiscal = await registerLink(sim, 'mxFiscal');
  await retrieve(sim, '/api/invoices/', fiscal, {
    date_from: '2025-11-01',
    date_to: '2026-10-31',
    type: 'INFLOW',
  });
  await retrieve(sim, '/api/invoices/', fiscal, {
    date_from: '2025-11-01',
    date_to: '2026-10-31',
    type: 'OUTFLOW',
  });
});

const list = (path: string, query: Record<string, string | number>) => sim.call('GET', path, { query });
const ids = (records: { id: string }[]) => records.map((r) => r.id);

/** Follows an absolute `next` URL as a client would. */
function follow(next: string) {
  const url = new URL(next);
  return list(url.pathname, Object.fromEntries(url.searchParams));
}

describe('PAGE-DEFAULT', () => {
  it('100 records a page, count of all, next carrying the filters and page_size, previous null', async () => {
    expect(transactions.length).toBeGreaterThan(1000);
    const page = await list('/api/transactions/', { link });
    expect(page.body.results).toHaveLength(100);
    expect(page.body.count).toBe(transactions.length);
    expect(page.body.previous).toBeNull();
    const next = new URL(page.body.next);
    expect(next.origin).toBe('http://127.0.0.1:4010');
    expect(Object.fromEntries(next.searchParams)).toEqual({ link, page: '2', page_size: '100' });
  });
});

describe('PAGE-MAX', () => {
  it('a page_size over 1000 is served as 1000', async () => {
    const page = await list('/api/transactions/', { link, page_size: 5000 });
    expect(page.status).toBe(200);
    expect(page.body.results).toHaveLength(1000);
    expect(new URL(page.body.next).searchParams.get('page_size')).toBe('1000');
  });

  it.each([
    ['page_size', 0],
    ['page', 1.5],
    ['page_size', 'ten'],
  ])('%s=%s gets 400 naming the field', async (name, value) => {
    const refused = await list('/api/transactions/', { link, [name]: value });
    expect(refused.status).toBe(400);
    expect(refused.body[0].field).toBe(name);
  });

  it.each([0, -3])(
    'page=%s (the provider states no minimum) holds no records; next leads to page 1',
    async (page) => {
      const below = await list('/api/transactions/', { link, page, page_size: 150 });
      expect(below.status).toBe(200);
      expect(below.body).toMatchObject({ count: transactions.length, previous: null, results: [] });
      const first = await follow(below.body.next);
      expect(new URL(below.body.next).searchParams.get('page')).toBe('1');
      expect(ids(first.body.results)).toEqual(ids(transactions).slice(0, 150));
    },
  );
});

describe('PAGE-NAV', () => {
  it('following next walks disjoint, ordered pages that together hold exactly count records', async () => {
    const seen: string[] = [];
    let page = await list('/api/transactions/', { link, page_size: 150 });
    const count = page.body.count;
    for (;;) {
      seen.push(...ids(page.body.results));
      if (page.body.next === null) break;
      const next = await follow(page.body.next);
      expect(new URL(next.body.previous).searchParams.get('page')).toBe(
        String(Number(new URL(page.body.next).searchParams.get('page')) - 1),
      );
      page = next;
    }
    expect(seen).toEqual(ids(transactions));
    expect(new Set(seen).size).toBe(count);
  });
});

describe('FILTER-RANGE', () => {
  it('value_date__range keeps the records inside the inclusive range', async () => {
    const inside = transactions.filter((t) => t.value_date >= '2026-03-01' && t.value_date <= '2026-03-31');
    const page = await list('/api/transactions/', {
      link,
      value_date__range: '2026-03-01,2026-03-31',
      page_size: 1000,
    });
    expect(ids(page.body.results)).toEqual(ids(inside));
    expect(inside.length).toBeGreaterThan(0);
  });

  it('amount__range compares numbers; year__range keeps tax returns of those years', async () => {
    const cheap = transactions.filter((t) => t.amount >= 10 && t.amount <= 100);
    const page = await list('/api/transactions/', { link, amount__range: '10,100', page_size: 1000 });
    expect(page.body.count).toBe(cheap.length);
    await retrieve(sim, '/api/tax-returns/', fiscal, { year_from: 2023, year_to: 2026 });
    const months = { type: 'monthly', date_from: '2023-01-01', date_to: '2026-10-31' };
    await retrieve(sim, '/api/tax-returns/', fiscal, months);
    const returns = await list('/api/tax-returns/', {
      link: fiscal,
      year__range: '2024,2024',
      page_size: 1000,
    });
    expect(returns.body.count).toBe(13);
    for (const r of returns.body.results) expect(r.year).toBe(2024);
  });
});

describe('FILTER-IN', () => {
  it('id__in and type__in keep the records whose field is one of the values', async () => {
    const picked = [transactions[3]!, transactions[500]!, transactions[900]!];
    const page = await list('/api/transactions/', { link, id__in: ids(picked).join(',') });
    expect(ids(page.body.results)).toEqual(ids(picked));
    const both = await list('/api/invoices/', { link: fiscal, type__in: 'INFLOW,OUTFLOW', page_size: 1000 });
    const outflows = await list('/api/invoices/', { link: fiscal, type__in: 'OUTFLOW', page_size: 1000 });
    expect(outflows.body.count).toBeGreaterThan(0);
    expect(outflows.body.count).toBeLessThan(both.body.count);
    for (const invoice of outflows.body.results) expect(invoice.type).toBe('OUTFLOW');
  });

  it('account filters by the parent record, category__in by the account category', async () => {
    const accounts = (await list('/api/accounts/', { link, category__in: 'SAVINGS_ACCOUNT,CREDIT_CARD' }))
      .body;
    expect(accounts.results.map((a: { category: string }) => a.category)).toEqual([
      'SAVINGS_ACCOUNT',
      'CREDIT_CARD',
    ]);
    const savings = accounts.results[0].id;
    const page = await list('/api/transactions/', { link, account: savings, page_size: 1000 });
    expect(page.body.count).toBe(transactions.filter((t) => t.account.id === savings).length);
  });
});
