import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { registerLink, retrieve } from '../../test-support/test-links.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator();
});

const list = (path: string, query: Record<string, string | number>) => sim.call('GET', path, { query });
const YEAR = { date_from: '2025-11-01', date_to: '2026-10-31' };

describe('EXCHANGE-HISTORY', () => {
  it('POST without dates retrieves the last 365 days, each exchange with its history', async () => {
    const link = await registerLink(sim, 'bank');
    const exchanges = (await retrieve(sim, '/api/br/exchanges/', link)).body;
    expect(exchanges.length).toBeGreaterThan(3);
    for (const e of exchanges)
      expect(e.operation_date >= '2025-11-02' && e.operation_date <= '2026-11-02').toBe(true);
    for (const exchange of exchanges) {
      const history = await sim.call('GET', `/api/br/exchanges/${exchange.id}/history/`);
      expect(history.status).toBe(200);
      const events = history.body.results;
      expect(history.body.count).toBe(events.length);
      expect(events[0]).toMatchObject({ event_type: 'CREATED', exchange: exchange.id, link });
      expect(events[0].event_date.slice(0, 10)).toBe(exchange.operation_date);
      expect(events.at(-1).status).toBe(exchange.status);
      const dates = events.map((e: { event_date: string }) => e.event_date);
      expect(dates).toEqual([...dates].sort());
    }
  });

  it('the history is paginated', async () => {
    const link = await registerLink(sim, 'bank');
    const exchanges = (await retrieve(sim, '/api/br/exchanges/', link)).body;
    const long = exchanges.find((e: { status: string }) => e.status !== 'OPEN');
    const first = await sim.call('GET', `/api/br/exchanges/${long.id}/history/`, { query: { page_size: 1 } });
    expect(first.body.results).toHaveLength(1);
    expect(first.body.count).toBeGreaterThan(1);
    expect(new URL(first.body.next).searchParams.get('page')).toBe('2');
  });

  it('dates given are kept; date_to before date_from gets 400', async () => {
    const link = await registerLink(sim, 'bank');
    const asked = await retrieve(sim, '/api/br/exchanges/', link, {
      date_from: '2023-01-01',
      date_to: '2024-12-31',
    });
    for (const e of asked.body)
      expect(e.operation_date >= '2023-01-01' && e.operation_date <= '2024-12-31').toBe(true);
    const inverted = await retrieve(sim, '/api/br/exchanges/', link, {
      date_from: '2024-01-02',
      date_to: '2024-01-01',
    });
    expect(inverted.status).toBe(400);
    expect(inverted.body[0]).toMatchObject({ code: 'invalid_range', field: 'date_to' });
  });

  it('deleting an exchange deletes its history (404); an unknown exchange has no history (404)', async () => {
    const link = await registerLink(sim, 'bank');
    const [exchange] = (await retrieve(sim, '/api/br/exchanges/', link)).body;
    expect((await sim.call('DELETE', `/api/br/exchanges/${exchange.id}/`)).status).toBe(204);
    expect((await sim.call('GET', `/api/br/exchanges/${exchange.id}/history/`)).status).toBe(404);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await sim.call('GET', `/api/br/exchanges/${unknown}/history/`)).status).toBe(404);
  });
});

describe('RANGE-365', () => {
  const cases = [
    { path: '/api/invoices/', kind: 'mxFiscal', extra: { type: 'INFLOW' } },
    { path: '/api/cl/invoices/', kind: 'clFiscal', extra: { type: 'OUTFLOW' } },
    { path: '/api/incomes/', kind: 'bank', extra: {} },
    { path: '/api/recurring-expenses/', kind: 'bank', extra: {} },
  ] as const;

  it.each(cases)(
    '$path: 365 days are accepted, 366 get 400 naming date_from',
    async ({ path, kind, extra }) => {
      const link = await registerLink(sim, kind);
      const accepted = await retrieve(sim, path, link, {
        date_from: '2025-10-31',
        date_to: '2026-10-31',
        ...extra,
      });
      expect(accepted.status).toBe(201);
      const refused = await retrieve(sim, path, link, {
        date_from: '2025-10-30',
        date_to: '2026-10-31',
        ...extra,
      });
      expect(refused.status).toBe(400);
      expect(refused.body[0]).toMatchObject({ code: 'invalid_range', field: 'date_from' });
      expect(refused.body[0].message).toContain('365');
    },
  );

  it('a range without an end runs to today, so an old start alone is refused too', async () => {
    const link = await registerLink(sim, 'bank');
    const refused = await retrieve(sim, '/api/incomes/', link, { date_from: '2024-01-01' });
    expect(refused.body[0]).toMatchObject({ code: 'invalid_range', field: 'date_from' });
    expect((await retrieve(sim, '/api/incomes/', link, { date_to: '2026-06-30' })).status).toBe(201);
  });
});

describe('TAX-RETENTIONS-500', () => {
  it('a year-long period holds more than 500 retentions: 500 are returned and stored', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const year = await retrieve(sim, '/api/tax-retentions/', link, { ...YEAR, type: 'INFLOW' });
    expect(year.status).toBe(201);
    expect(year.body).toHaveLength(500);
    expect((await list('/api/tax-retentions/', { link })).body.count).toBe(500);
  });

  it('a shorter period returns all of its retentions', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const month = await retrieve(sim, '/api/tax-retentions/', link, {
      date_from: '2026-10-01',
      date_to: '2026-10-31',
      type: 'OUTFLOW',
    });
    expect(month.body.length).toBeGreaterThan(30);
    expect(month.body.length).toBeLessThan(500);
    for (const r of month.body) expect(r.type).toBe('OUTFLOW');
  });
});

describe('TAX-RETURNS-MIXED', () => {
  it('yearly (the default) and monthly retrievals; the list mixes both, of closed periods only', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const years = { year_from: 2025, year_to: 2026 };
    const months = { type: 'monthly', date_from: '2025-01-01', date_to: '2026-10-31' };
    const returns = [
      ...(await retrieve(sim, '/api/tax-returns/', link, years)).body,
      ...(await retrieve(sim, '/api/tax-returns/', link, months)).body,
    ];
    const yearly = returns.filter((r: { type: string }) => r.type === 'yearly');
    const monthly = returns.filter((r: { type: string }) => r.type === 'monthly');
    expect(yearly.map((r: { year: number }) => r.year)).toEqual([2025]);
    expect(monthly).toHaveLength(22);
    for (const r of yearly) expect(r).not.toHaveProperty('month');
    expect(monthly.at(-1)).toMatchObject({ year: 2026, month: 10 });
    const listed = await list('/api/tax-returns/', { link, page_size: 1000 });
    expect(new Set(listed.body.results.map((r: { type: string }) => r.type))).toEqual(
      new Set(['yearly', 'monthly']),
    );
    // The `type` filter reads the provider's spelling and the capitals this document had before.
    for (const [type, count] of [
      ['yearly', 1],
      ['YEARLY', 1],
      ['monthly', 22],
      ['MONTHLY', 22],
    ] as const) {
      const only = await list('/api/tax-returns/', { link, type, page_size: 1000 });
      expect(
        only.body.results.map((r: { type: string }) => r.type),
        type,
      ).toEqual(Array(count).fill(type.toLowerCase()));
    }
  });

  it('type limits the retrieval to one schema; year_to before year_from gets 400', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const yearly = await retrieve(sim, '/api/tax-returns/', link, {
      year_from: '2021',
      year_to: '2026',
      type: 'yearly',
    });
    expect(yearly.body.map((r: { year: number }) => r.year)).toEqual([2021, 2022, 2023, 2024, 2025]);
    const inverted = await retrieve(sim, '/api/tax-returns/', link, { year_from: 2025, year_to: 2024 });
    expect(inverted.body[0]).toMatchObject({ code: 'invalid_range', field: 'year_to' });
  });

  it('the provider monthly body: type monthly with date_from/date_to reads the monthly returns of those months', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const monthly = await retrieve(sim, '/api/tax-returns/', link, {
      type: 'monthly',
      date_from: '2026-03-01',
      date_to: '2026-05-31',
      attach_pdf: true,
    });
    expect(monthly.status).toBe(201);
    expect(monthly.body.map((r: { type: string; month: number }) => [r.type, r.month])).toEqual([
      ['monthly', 3],
      ['monthly', 4],
      ['monthly', 5],
    ]);
    for (const r of monthly.body) expect(typeof r.pdf).toBe('string');
    const inverted = { type: 'monthly', date_from: '2026-05-01', date_to: '2026-03-31' };
    expect((await retrieve(sim, '/api/tax-returns/', link, inverted)).status).toBe(400);
  });
});

describe('EMPLOYMENT-METRICS-PREREQ', () => {
  it('400 before an employment record retrieval; 201 after, derived from that record', async () => {
    const link = await registerLink(sim, 'metrics');
    const early = await retrieve(sim, '/api/employment-metrics/', link);
    expect(early.status).toBe(400);
    expect(early.body[0]).toMatchObject({ code: 'prerequisite_missing', field: 'link' });
    const [record] = (await retrieve(sim, '/api/employment-records/', link)).body;
    const metrics = await retrieve(sim, '/api/employment-metrics/', link);
    expect(metrics.status).toBe(201);
    expect(metrics.body.map((m: { employment_record: string }) => m.employment_record)).toEqual([record.id]);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await retrieve(sim, '/api/employment-metrics/', link, { employment_record: unknown });
    expect(missing.status).toBe(404);
    expect(missing.body[0].field).toBe('employment_record');
  });

  it.each(['mxEmployment', 'sandbox'] as const)('a %s link gets 400 even after its records', async (kind) => {
    const link = await registerLink(sim, kind);
    expect((await retrieve(sim, '/api/employment-records/', link)).status).toBe(201);
    const refused = await retrieve(sim, '/api/employment-metrics/', link);
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'unsupported_resource', field: 'link' });
    expect(refused.body[0].message).toContain('employment_metrics');
  });
});

describe('INVOICE-CANCELLED', () => {
  it("retrieved invoices are Vigente or Cancelado (the SAT's words), and status filters them", async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const invoices = (await retrieve(sim, '/api/invoices/', link, { ...YEAR, type: 'INFLOW' })).body;
    const statuses = new Set(invoices.map((i: { status: string }) => i.status));
    expect([...statuses].sort()).toEqual(['Cancelado', 'Vigente']);
    const cancelled = invoices.filter((i: { status: string }) => i.status === 'Cancelado');
    expect(cancelled.length).toBeLessThan(invoices.length);
    for (const i of cancelled) expect(i.cancelled_at).not.toBeNull();
    const filtered = await list('/api/invoices/', { link, status: 'Cancelado', page_size: 1000 });
    expect(filtered.body.results.map((i: { id: string }) => i.id)).toEqual(
      cancelled.map((i: { id: string }) => i.id),
    );
    const inForce = await list('/api/invoices/', { link, status__in: 'Vigente', page_size: 1000 });
    expect(inForce.body.count).toBe(invoices.length - cancelled.length);
    const detail = await sim.call('GET', `/api/invoices/${cancelled[0].id}/`);
    expect(detail.body).toMatchObject({ status: 'Cancelado', type: 'INFLOW' });
    // The old words name no invoice now.
    expect((await list('/api/invoices/', { link, status: 'CANCELLED' })).body.count).toBe(0);
  });
});
