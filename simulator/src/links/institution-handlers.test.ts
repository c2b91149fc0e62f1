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

describe('ERR-404', () => {
  it("lists institutions with the provider's integer ids and answers each by its id; a uuid or an unknown number is 404", async () => {
    const listed = (await sim.call('GET', '/api/institutions/')).body.results as {
      id: number;
      name: string;
    }[];
    expect(listed.length).toBeGreaterThan(5);
    for (const { id } of listed) expect(Number.isInteger(id) && id > 0).toBe(true);
    expect(new Set(listed.map((i) => i.id)).size).toBe(listed.length);
    for (const institution of listed) {
      const detail = await sim.call('GET', `/api/institutions/${institution.id}/`);
      expect(detail.status).toBe(200);
      expect(detail.body).toEqual(institution);
    }
    expect((await sim.call('GET', '/api/institutions/5/')).body.name).toBe(
      listed.find((i) => i.id === 5)?.name,
    );
    for (const unknown of [
      '5b0c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e',
      '99999',
      '-1',
      '1.0',
      'ofbank_br_retail',
    ]) {
      const missing = await sim.call('GET', `/api/institutions/${unknown}/`);
      expect(missing.status, unknown).toBe(404);
      expect(missing.body[0], unknown).toMatchObject({ code: 'not_found' });
    }
    const byId = await sim.call('GET', '/api/institutions/', { query: { id: listed[0]!.id } });
    expect(byId.body.results).toEqual([listed[0]]);
  });

  it("a link names its institution by the institution's name, not its id", async () => {
    const [bank] = (await sim.call('GET', '/api/institutions/', { query: { name: 'ofbank_br_retail' } })).body
      .results;
    const body = { institution: bank.name, username: '76109277673', password: 'secret' };
    const link = await sim.call('POST', '/api/links/', { body });
    expect(link.body.institution).toBe('ofbank_br_retail');
    const byId = await sim.call('POST', '/api/links/', { body: { ...body, institution: String(bank.id) } });
    expect(byId.status).toBe(400);
  });
});
