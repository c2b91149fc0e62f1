import { beforeAll, describe, expect, it } from 'vitest';
import { type CheckedSimulator, contractCheckedSimulator } from '../testing/contract-checked-simulator.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator('institutions');
});

describe('TOKEN-WIDGET', () => {
  it('POST /api/token/ answers 201 with a fresh short-lived token, with or without scopes', async () => {
    const first = await sim.call('POST', '/api/token/');
    const second = await sim.call('POST', '/api/token/', {
      body: { scopes: 'read_institutions,write_links' },
    });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(first.body.expires_in).toBe(600);
    expect(first.body.access).not.toBe(second.body.access);
  });

  it('answers 401 without credentials', async () => {
    expect((await sim.call('POST', '/api/token/', { as: null })).status).toBe(401);
  });
});
