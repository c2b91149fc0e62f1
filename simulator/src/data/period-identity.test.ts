/**
 * DATA-RETRIEVE for the records that are one per period (tax returns): a return is the one of its link,
 * kind and period, like a transaction or an invoice retrieved again, whatever stored it first (a
 * retrieval, a daily refresh, an import).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { TAX_RETURNS } from '../../../openapi/http/api-paths.js';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { retrieve } from '../../test-support/test-links.js';

let sim: CheckedSimulator;

beforeEach(async () => {
  sim = await contractCheckedSimulator('period-identity');
  await sim.call('POST', '/_ofkit/clock/freeze/');
});

async function fiscalLink(access_mode = 'single'): Promise<string> {
  const body = {
    institution: 'ofsat_mx_fiscal',
    username: 'GOMA850315AB1',
    password: 'ciec',
    access_mode,
    fetch_resources: ['TAX_RETURNS'],
  };
  return (await sim.call('POST', '/api/links/', { body })).body.id;
}

interface Return {
  id: string;
  type: string;
  year: number;
  month?: number;
}
const periodOf = (r: Return) => `${r.type} ${r.year}${r.month ? `-${r.month}` : ''}`;

async function listed(link: string): Promise<Return[]> {
  return (await sim.call('GET', TAX_RETURNS, { query: { link, page_size: 1000 } })).body.results;
}

describe('DATA-RETRIEVE', () => {
  it('a daily refresh finds the latest closed month whose return the link lacks, the same return a retrieval gives', async () => {
    const link = await fiscalLink('recurrent');
    const historical = await listed(link);
    expect(historical.map(periodOf)).toEqual([2021, 2022, 2023, 2024, 2025].map((y) => `yearly ${y}`));
    for (const expected of ['monthly 2026-10', 'monthly 2026-9']) {
      await sim.call('POST', '/_ofkit/daily-refresh/');
      const now = await listed(link);
      expect(now.map(periodOf)).toContain(expected);
      expect(new Set(now.map(periodOf)).size).toBe(now.length);
    }
    const kept = await listed(link);
    const monthly = { type: 'monthly', date_from: '2026-08-01', date_to: '2026-10-31' };
    const retrieved = (await retrieve(sim, TAX_RETURNS, link, monthly)).body as Return[];
    expect(retrieved.map(periodOf)).toEqual(['monthly 2026-8', 'monthly 2026-9', 'monthly 2026-10']);
    for (const r of retrieved.slice(1)) expect(kept.find((k) => periodOf(k) === periodOf(r))?.id).toBe(r.id);
    const after = await listed(link);
    expect(after).toHaveLength(kept.length + 1);
  });

  it('a return stored under another id (an import of an older snapshot) keeps that id when retrieved again', async () => {
    const link = await fiscalLink();
    const [first] = (await retrieve(sim, TAX_RETURNS, link, { year_from: '2025', year_to: '2025' }))
      .body as Return[];
    const tenant = sim.simulator.tenant('tenant-a');
    const stored = await tenant.store.get(TAX_RETURNS, first!.id);
    await tenant.store.delete(TAX_RETURNS, first!.id);
    const older = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
    await tenant.store.put(TAX_RETURNS, { ...stored!, id: older });
    const again = (await retrieve(sim, TAX_RETURNS, link, { year_from: '2025', year_to: '2025' }))
      .body as Return[];
    expect(again.map((r) => r.id)).toEqual([older]);
    expect((await listed(link)).map((r) => r.id)).toEqual([older]);
    // Not stored (`save_data: false`), the answer still names the stored return.
    const unsaved = await retrieve(sim, TAX_RETURNS, link, {
      year_from: '2025',
      year_to: '2025',
      save_data: false,
    });
    expect(unsaved.status).toBe(200);
    expect(unsaved.body.map((r: Return) => r.id)).toEqual([older]);
  });

  it('any `type` but monthly reads yearly returns (the provider takes a free string)', async () => {
    const link = await fiscalLink();
    for (const type of ['yearly', 'YEARLY', 'annual', '']) {
      const answer = await retrieve(sim, TAX_RETURNS, link, { type, year_from: '2024', year_to: '2025' });
      expect(answer.status, type).toBe(201);
      expect(answer.body.map(periodOf), type).toEqual(['yearly 2024', 'yearly 2025']);
    }
  });
});
