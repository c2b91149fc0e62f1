/**
 * A standing situation (SimulatorOptions.standing, what `ofkit golive` runs a client under): armed on
 * every key's tenant at start and again after each reset, so that a client whose tests reset between
 * their cases meets it in each case. Every response is checked against the documents.
 */
import { describe, expect, it } from 'vitest';
import { contractCheckedSimulator } from '../../test-support/contract-checked-simulator.js';
import type { StandingSituation } from './standing-situation.js';

const SITUATION: StandingSituation = {
  faults: [{ operation_id: 'listInstitutions', status: 500, count: 1 }],
  scenarios: [{ scenario: 'institution_requires_token', count: null }],
  clock: [{ freeze: true }, { advance_seconds: 60 }],
};
const LINK = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };

describe('a standing situation', () => {
  it('is armed at start and again after each reset: faults, scenario switches, the clock script', async () => {
    let realNow = Date.parse('2026-11-02T12:00:00.000Z');
    const sim = await contractCheckedSimulator('standing', { standing: SITUATION, realTime: () => realNow });
    const rounds = { 'at start': '2026-11-02T12:01:00.000Z', 'after a reset': '2026-11-02T13:01:00.000Z' };
    for (const [round, frozenAt] of Object.entries(rounds)) {
      const statuses = [];
      for (let i = 0; i < 2; i += 1) statuses.push((await sim.call('GET', '/api/institutions/')).status);
      expect(statuses, round).toEqual([500, 200]);
      // Every registration asks for a token (a switch without a count stays until cleared).
      for (let i = 0; i < 2; i += 1)
        expect((await sim.call('POST', '/api/links/', { body: LINK })).status, round).toBe(428);
      realNow += 3_600_000;
      // Frozen where the reset left it (the machine's time), then moved by a minute: an hour of the
      // machine's time later it has not moved.
      expect((await sim.call('GET', '/_ofkit/clock/')).body, round).toEqual({ frozen: true, now: frozenAt });
      expect((await sim.call('POST', '/_ofkit/reset/')).status).toBe(204);
    }
  });

  it('is every key tenant’s, and a simulator without one arms nothing', async () => {
    const standing = await contractCheckedSimulator('standing', { standing: SITUATION });
    expect((await standing.call('GET', '/api/institutions/', { as: 'tenant-b:secret-b' })).status).toBe(500);
    const plain = await contractCheckedSimulator('standing');
    expect((await plain.call('GET', '/api/institutions/')).status).toBe(200);
    expect((await plain.call('GET', '/_ofkit/faults/')).body).toEqual([]);
  });
});
