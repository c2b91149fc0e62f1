/**
 * Dates computed from the virtual clock stay valid at its bounds. At the earliest and the latest
 * instant the clock accepts, a link of every institution (single and recurrent) is described with a
 * record of every resource it serves and an account with transactions, the daily refresh runs and the
 * tenant exports: every answer is a documented one (the contract check of each call), none a 500
 * ("Invalid time value"). An instant past a bound is refused with the error array.
 */
import { describe, expect, it } from 'vitest';
import { EARLIEST_INSTANT, LATEST_INSTANT } from '../../simulator/src/control/clock-handlers.js';
import { INSTITUTIONS } from '../../simulator/src/links/institutions/catalogue.js';
import { contractCheckedSimulator } from '../../simulator/test-support/contract-checked-simulator.js';

const RESOURCES = [
  'owners',
  'bills',
  'br/balances',
  'br/exchanges',
  'br/investments',
  'br/investment-transactions',
  'br/employments',
  'employment-records',
  'mx/current-employments',
  'invoices',
  'tax-returns',
  'tax-retentions',
  'tax-status',
  'tax-compliance-status',
  'financial-statements',
  'cl/invoices',
  'cl/tax-status',
  'cl/debt-reports',
  'incomes',
  'recurring-expenses',
  'risk-insights',
];

const snapshot = (now: string) => ({
  format: 'ofkit-snapshot/2',
  clock: { now, frozen: true },
  state: { store: { collections: {}, windows: {} }, scenarios: [], faults: [] },
});

async function describeEveryLink(sim: Awaited<ReturnType<typeof contractCheckedSimulator>>) {
  for (const { name, type } of INSTITUTIONS) {
    for (const access_mode of ['single', 'recurrent']) {
      let records = Object.fromEntries(RESOURCES.map((resource) => [resource, [{}]]));
      const accounts =
        type === 'bank' ? [{ category: 'CHECKING_ACCOUNT', transactions: [{}, {}] }] : undefined;
      for (let attempt = 0; attempt < 3; attempt++) {
        const answer = await sim.call('POST', '/_ofkit/links/', {
          body: { institution: name, access_mode, records, ...(accounts && { accounts }) },
        });
        if (answer.status === 201) break;
        expect(answer.status, `${name} ${access_mode}: ${JSON.stringify(answer.body)}`).toBe(400);
        // The resources this institution does not serve are named: describe the others.
        const refused = new Set(
          answer.body.map((error: { field?: string }) => error.field?.replace(/^records\./, '')),
        );
        records = Object.fromEntries(Object.entries(records).filter(([resource]) => !refused.has(resource)));
        expect(attempt, `${name}: ${JSON.stringify(answer.body)}`).toBeLessThan(2);
      }
    }
  }
}

describe('the virtual clock at its bounds', () => {
  for (const now of [EARLIEST_INSTANT, LATEST_INSTANT].map((instant) => new Date(instant).toISOString())) {
    it(`at ${now}: every link, record, refresh and export is a documented answer`, async () => {
      const sim = await contractCheckedSimulator('clock-bounds');
      expect((await sim.call('PUT', '/_ofkit/snapshot/', { body: snapshot(now) })).status).toBe(204);
      await describeEveryLink(sim);
      expect((await sim.call('POST', '/_ofkit/daily-refresh/')).status).toBe(202);
      expect((await sim.call('GET', '/_ofkit/snapshot/')).status).toBe(200);
      await sim.simulator.webhooks.idle();
    }, 120_000);
  }

  it('refuses an instant past either bound, in the error array, leaving the clock where it was', async () => {
    const sim = await contractCheckedSimulator('clock-bounds');
    for (const now of ['0000-01-01T00:00:00.000Z', '1969-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z']) {
      const imported = await sim.call('PUT', '/_ofkit/snapshot/', { body: snapshot(now) });
      expect(imported.status, now).toBe(400);
      expect(imported.body[0]).toMatchObject({ code: 'invalid', field: 'clock.now' });
    }
    expect(
      (await sim.call('PUT', '/_ofkit/clock/', { body: { now: '1969-12-31T00:00:00.000Z' } })).status,
    ).toBe(400);
    const latest = new Date(LATEST_INSTANT).toISOString();
    expect((await sim.call('PUT', '/_ofkit/snapshot/', { body: snapshot(latest) })).status).toBe(204);
    expect((await sim.call('POST', '/_ofkit/clock/advance/', { body: { seconds: 1 } })).status).toBe(400);
    expect((await sim.call('GET', '/_ofkit/clock/')).body.now).toBe(latest);
  });
});
