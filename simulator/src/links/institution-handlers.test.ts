import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';

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

  it('takes the body the provider SDK and update-mode docs send (id, password, scopes, link_id, widget)', async () => {
    const body = {
      id: 'key-id',
      password: 'key-password',
      scopes: 'read_institutions,write_links,read_links',
      link_id: '30cb4806-6e00-48a4-91c9-ca55968576c8',
      widget: { branding: { company_name: 'Acme' } },
    };
    expect((await sim.call('POST', '/api/token/', { body })).status).toBe(201);
  });

  it('answers 401 without credentials', async () => {
    expect((await sim.call('POST', '/api/token/', { as: null })).status).toBe(401);
  });
});
