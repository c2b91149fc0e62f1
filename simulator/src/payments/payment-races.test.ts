/**
 * A payment object's transitions happen once, whichever replicas and job runs race on them: two
 * decisions at once (the user's, the control API's), a scheduled charge's job that runs again (its
 * replica died after charging): each is one compare-and-set on the object's status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import {
  authorizationCharges,
  confirmAuthorization,
  createAuthorization,
  eventsSince,
  expectValidEvents,
  gmt3,
} from '../../test-support/payments-test-kit.js';
import { startProcessing } from './charge-settlement.js';
import type { ChargeRecord } from './payment-records.js';
import { CHARGES, getRecord } from './payment-store.js';

let sim: CheckedSimulator;
const tenant = () => sim.simulator.tenant('tenant-a');

beforeAll(async () => {
  sim = await contractCheckedSimulator('payment-races');
  await tenant().clock.setTo(gmt3('2026-11-02T09:00:00'));
});
afterAll(() => expectValidEvents(sim));

describe('PAY-AUTH-AUTHORIZED', () => {
  it('a confirmation and a refusal at once: one wins, the other is refused, one status event', async () => {
    for (let trial = 0; trial < 10; trial++) {
      const id = (await createAuthorization(sim)).payment_authorization_id;
      const from = eventsSince(sim, 0).length;
      const answers = await Promise.all([
        sim.call('POST', `/_ofkit/payment-authorizations/${id}/confirm/`),
        sim.call('POST', `/_ofkit/payment-authorizations/${id}/reject/`),
      ]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400]);
      const statuses = eventsSince(sim, from).filter(
        (event) => event.webhook_code === 'status' && event.data.payment_authorization_id === id,
      );
      expect(statuses).toHaveLength(1);
    }
  });
});

describe('PAY-AUTH-CHARGES', () => {
  it('a scheduled charge whose job dies after processing started is settled by its next run, once', async () => {
    const id = (await createAuthorization(sim)).payment_authorization_id;
    await confirmAuthorization(sim, id);
    const [chargeJob] = (await tenant().store.upcomingJobs(20)).filter(
      (job) => job.kind === 'scheduled charge',
    );
    const from = eventsSince(sim, 0).length;
    // The first run got as far as PROCESSING (and its event), then its replica died.
    await tenant().clock.setTo(gmt3('2026-11-10T05:59:59'));
    const scheduled = await getRecord<ChargeRecord>(tenant(), CHARGES, String(chargeJob!.args.charge));
    expect(scheduled?.status).toBe('SCHEDULED');
    expect(await startProcessing(tenant(), scheduled!)).toMatchObject({ status: 'PROCESSING' });
    // Another replica runs the job again, and once more (its lease lapsed); then the clock runs it.
    await sim.simulator.jobs.run(tenant(), chargeJob!);
    await sim.simulator.jobs.run(tenant(), chargeJob!);
    await tenant().clock.setTo(gmt3('2026-11-10T06:00:00'));
    const charges = await authorizationCharges(sim, id);
    expect(charges.map((charge) => [charge.date, charge.status])).toEqual([
      ['2026-11-10', 'SUCCEEDED'],
      ['2026-12-10', 'SCHEDULED'],
    ]);
    const first = charges[0]!.charge_id;
    const ofFirst = eventsSince(sim, from).filter((event) => event.data.charge_id === first);
    expect(ofFirst.map((event) => event.data.status)).toEqual(['PROCESSING', 'SUCCEEDED']);
  });
});
