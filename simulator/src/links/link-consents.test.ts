import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
  FIXED_NOW,
} from '../../test-support/contract-checked-simulator.js';

let sim: CheckedSimulator;
beforeEach(async () => {
  sim = await contractCheckedSimulator('consents');
});

const BR_BANK = { institution: 'ofbank_br_retail', username: '76109277673', password: 'secret' };
const register = async (body: Record<string, unknown> = BR_BANK, as?: string) =>
  (await sim.call('POST', '/api/links/', { body, ...(as && { as }) })).body;
const consentsOf = async (link: string, as?: string) =>
  (await sim.call('GET', '/api/consents/', { query: { link }, ...(as && { as }) })).body.results;

describe('Consents of Brazilian open finance links', () => {
  it('a link registered at a Brazilian bank has one authorised consent, dated on the tenant clock', async () => {
    const link = await register();
    const [consent, ...others] = await consentsOf(link.id);
    expect(others).toEqual([]);
    expect(consent).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      link: link.id,
      institution: 'ofbank_br_retail',
      status: 'AUTHORISED',
      permissions: [
        'ACCOUNTS_READ',
        'ACCOUNTS_BALANCES_READ',
        'RESOURCES_READ',
        'CUSTOMERS_PERSONAL_IDENTIFICATIONS_READ',
        'CREDIT_CARDS_ACCOUNTS_READ',
        'INVESTMENTS_READ',
      ],
      created_at: new Date(FIXED_NOW).toISOString(),
      expiration_date: '2027-11-02T12:00:00.000Z',
    });
    expect(consent.created_at).toBe(link.created_at);
    const detail = await sim.call('GET', `/api/consents/${consent.id}/`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(consent);
  });

  it('asks only the permissions of the resources the link fetches', async () => {
    const link = await register({ ...BR_BANK, fetch_resources: ['ACCOUNTS', 'TRANSACTIONS'] });
    const [consent] = await consentsOf(link.id);
    expect(consent.permissions).toEqual(['ACCOUNTS_READ', 'RESOURCES_READ']);
  });

  it('links at other institutions (fiscal, employment, outside Brazil) have none', async () => {
    await register({ institution: 'ofsat_mx_fiscal', username: 'ABCD010101AB1', password: 'ciec' });
    await register({ institution: 'ofinss_br_employment', username: '76109277673', password: 'p' });
    expect((await sim.call('GET', '/api/consents/')).body).toMatchObject({ count: 0, results: [] });
  });

  it('the same seed gives the same consent ids', async () => {
    const first = (await consentsOf((await register()).id))[0].id;
    sim = await contractCheckedSimulator('consents');
    const again = (await consentsOf((await register()).id))[0].id;
    sim = await contractCheckedSimulator('another seed');
    const other = (await consentsOf((await register()).id))[0].id;
    expect(again).toBe(first);
    expect(other).not.toBe(first);
  });

  it('LINK-MFA-428: awaiting authorisation while the token is asked, authorised once resumed', async () => {
    const paused = (await sim.call('POST', '/api/links/', { body: { ...BR_BANK, username: 'mfa-user' } }))
      .body[0];
    const [waiting] = await consentsOf(paused.link);
    expect(waiting).toMatchObject({ link: paused.link, status: 'AWAITING_AUTHORISATION' });
    await sim.simulator.tenant('tenant-a').clock.advance(60_000);
    const resumed = await sim.call('PATCH', '/api/links/', {
      body: { session: paused.session, token: '123456', link: paused.link },
    });
    expect(resumed.status).toBe(200);
    expect(await consentsOf(paused.link)).toEqual([{ ...waiting, status: 'AUTHORISED' }]);
  });

  it('lists filter by status, status__in, id and link, and page (PAGE-*, FILTER-IN)', async () => {
    const a = (await consentsOf((await register()).id))[0];
    const b = (await consentsOf((await register()).id))[0];
    const list = (query: Record<string, string | number>) =>
      sim.call('GET', '/api/consents/', { query }).then((r) => r.body);
    expect((await list({ status: 'AUTHORISED' })).count).toBe(2);
    expect((await list({ status: 'REVOKED' })).count).toBe(0);
    expect((await list({ status__in: 'REVOKED,AUTHORISED' })).count).toBe(2);
    expect((await list({ id: b.id })).results).toEqual([b]);
    expect((await list({ page_size: 1 })).next).toContain('page=2');
    expect((await list({ link: a.link })).results).toEqual([a]);
  });

  it('ERR-404 and AUTH-TENANT: an unknown id, or another key’s consent, is not found', async () => {
    const consent = (await consentsOf((await register()).id))[0];
    expect((await sim.call('GET', `/api/consents/${consent.link}/`)).status).toBe(404);
    const other = await sim.call('GET', `/api/consents/${consent.id}/`, { as: 'tenant-b:secret-b' });
    expect(other.status).toBe(404);
    expect((await sim.call('GET', '/api/consents/', { as: 'tenant-b:secret-b' })).body.count).toBe(0);
  });
});

describe('LINK-DELETE-SYNC', () => {
  it('deleting the link deletes its consents, and only them', async () => {
    const gone = await register();
    const kept = await register();
    const consent = (await consentsOf(gone.id))[0];
    expect((await sim.call('DELETE', `/api/links/${gone.id}/`)).status).toBe(204);
    expect((await sim.call('GET', `/api/consents/${consent.id}/`)).status).toBe(404);
    const left = (await sim.call('GET', '/api/consents/')).body.results;
    expect(left.map((c: { link: string }) => c.link)).toEqual([kept.id]);
  });

  it('an asynchronous deletion takes the consents with the link when its job runs', async () => {
    const link = await register();
    await sim.call('DELETE', `/api/links/${link.id}/`, { headers: { 'x-service-request-mode': 'async' } });
    expect(await consentsOf(link.id)).toHaveLength(1);
    await sim.simulator.tenant('tenant-a').clock.advance(1_000);
    expect(await consentsOf(link.id)).toEqual([]);
  });
});
