import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { LAST_MONTH, RETRIEVALS, recordsOf, registerLink, retrieve } from '../../test-support/test-links.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator();
});

const B = 'tenant-b:secret-b';
const ids = (records: { id: string }[]) => records.map((r) => r.id);
const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe('DATA-DETAIL', () => {
  it('GET P/{id}/ returns the stored record, without private members', async () => {
    const link = await registerLink(sim, 'bank');
    const [exchange] = (await retrieve(sim, '/api/br/exchanges/', link)).body;
    const detail = await sim.call('GET', `/api/br/exchanges/${exchange.id}/`);
    expect(detail.status).toBe(200);
    expect(detail.body).toEqual(exchange);
    expect(Object.keys(detail.body).some((key) => key.startsWith('_'))).toBe(false);
  });
});

describe('ERR-404', () => {
  it.each(RETRIEVALS.map((r) => r.path))('%s: an unknown id gets 404 on detail and delete', async (path) => {
    const detail = await sim.call('GET', `${path}${UNKNOWN}/`);
    expect(detail.status).toBe(404);
    expect(detail.body[0].code).toBe('not_found');
    if (path !== '/api/br/balances/')
      expect((await sim.call('DELETE', `${path}${UNKNOWN}/`)).status).toBe(404);
  });

  it('a record of another tenant is 404', async () => {
    const link = await registerLink(sim, 'bank');
    const [owner] = (await retrieve(sim, '/api/owners/', link)).body;
    expect((await sim.call('GET', `/api/owners/${owner.id}/`, { as: B })).status).toBe(404);
  });

  it('a retrieval for an unknown link gets 404 naming `link`', async () => {
    const unknown = await retrieve(sim, '/api/owners/', UNKNOWN);
    expect(unknown.status).toBe(404);
    expect(unknown.body[0]).toMatchObject({ code: 'not_found', field: 'link' });
  });
});

describe('ERR-405', () => {
  it('balances refuse DELETE and PATCH; bills refuse PATCH; a record refuses PUT', async () => {
    const link = await registerLink(sim, 'bank');
    const [balance] = (await retrieve(sim, '/api/br/balances/', link)).body;
    const refused = await sim.call('DELETE', `/api/br/balances/${balance.id}/`);
    expect(refused.status).toBe(405);
    expect(refused.body[0].code).toBe('method_not_allowed');
    expect(
      (await sim.call('PATCH', '/api/br/balances/', { body: { session: 's', token: 't' } })).status,
    ).toBe(405);
    expect((await sim.call('PATCH', '/api/bills/', { body: { session: 's', token: 't' } })).status).toBe(405);
    expect((await sim.call('PUT', `/api/br/balances/${balance.id}/`, { body: {} })).status).toBe(405);
    expect((await sim.call('GET', `/api/br/balances/${balance.id}/`)).status).toBe(200);
  });
});

describe('DATA-DELETE', () => {
  it('DELETE P/{id}/ answers 204; the record is gone from detail and list, the others stay', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const invoices = (await retrieve(sim, '/api/invoices/', link, { ...LAST_MONTH, type: 'INFLOW' })).body;
    const [gone, ...kept] = invoices;
    expect((await sim.call('DELETE', `/api/invoices/${gone.id}/`)).status).toBe(204);
    expect((await sim.call('GET', `/api/invoices/${gone.id}/`)).status).toBe(404);
    const list = await sim.call('GET', '/api/invoices/', { query: { link, page_size: 1000 } });
    expect(ids(list.body.results)).toEqual(ids(kept));
    expect((await sim.call('DELETE', `/api/invoices/${gone.id}/`)).status).toBe(404);
  });
});

describe('LIST-LINK-REQUIRED', () => {
  const required = RETRIEVALS.map((r) => r.path).filter((path) =>
    [
      'balances',
      'exchanges',
      'transactions',
      'bills',
      'investments',
      'investment-transactions',
      'employments',
    ].some((name) => path.endsWith(`/${name}/`) && path !== '/api/mx/current-employments/'),
  );

  it('covers the seven lists of the rule', () => expect(required).toHaveLength(7));

  it.each(required)('%s without link: 400 required/link; with it: 200', async (path) => {
    const missing = await sim.call('GET', path);
    expect(missing.status).toBe(400);
    expect(missing.body[0]).toMatchObject({ code: 'required', field: 'link' });
    expect((await sim.call('GET', path, { query: { link: UNKNOWN } })).status).toBe(200);
  });

  it('lists where link is only recommended answer without it', async () => {
    expect((await sim.call('GET', '/api/owners/')).status).toBe(200);
    expect((await sim.call('GET', '/api/invoices/')).status).toBe(200);
  });
});

describe('ACCOUNT-DELETE-CASCADE', () => {
  it("deleting an account removes its transactions and the link's owner information, nothing else", async () => {
    const link = await registerLink(sim, 'bank');
    await retrieve(sim, '/api/owners/', link);
    const transactions = (await retrieve(sim, '/api/transactions/', link, LAST_MONTH)).body;
    const accounts = (await sim.call('GET', '/api/accounts/', { query: { link } })).body.results;
    const [gone, ...kept] = accounts;
    const survivors = transactions.filter((t: { account: { id: string } }) => t.account.id !== gone.id);
    expect(survivors.length).toBeLessThan(transactions.length);
    expect((await sim.call('DELETE', `/api/accounts/${gone.id}/`)).status).toBe(204);
    const listed = await sim.call('GET', '/api/transactions/', { query: { link, page_size: 1000 } });
    expect(ids(listed.body.results)).toEqual(ids(survivors));
    expect((await sim.call('GET', '/api/owners/', { query: { link } })).body.count).toBe(0);
    expect(ids((await sim.call('GET', '/api/accounts/', { query: { link } })).body.results)).toEqual(
      ids(kept),
    );
  });
});

describe('DELETE-RATE-LIMIT', () => {
  const advance = (ms: number) => sim.simulator.tenant('tenant-b').clock.advance(ms);

  async function recordsOf(path: string): Promise<string[]> {
    if (path === '/api/transactions/') {
      return ids((await retrieve(sim, path, await registerLink(sim, 'bank', B), LAST_MONTH, B)).body);
    }
    const out: string[] = [];
    for (let i = 0; i < 7; i++) {
      const kind = path === '/api/accounts/' ? 'bank' : 'metrics';
      out.push(...ids((await retrieve(sim, path, await registerLink(sim, kind, B), {}, B)).body));
    }
    return out;
  }

  it.each(['/api/accounts/', '/api/transactions/', '/api/employment-records/'])(
    '%s: the sixth deletion in a minute gets 429; a minute after the first, it is accepted',
    async (path) => {
      await advance(60_000);
      const records = await recordsOf(path);
      for (const id of records.slice(0, 5)) {
        expect((await sim.call('DELETE', `${path}${id}/`, { as: B })).status).toBe(204);
        await advance(1_000);
      }
      const sixth = await sim.call('DELETE', `${path}${records[5]}/`, { as: B });
      expect(sixth.status).toBe(429);
      expect(sixth.body[0]).toMatchObject({ code: 'too_many_requests' });
      expect((await sim.call('GET', `${path}${records[5]}/`, { as: B })).status).toBe(200);
      await advance(55_000);
      expect((await sim.call('DELETE', `${path}${records[5]}/`, { as: B })).status).toBe(204);
    },
  );

  it('is not applied where the operation has no x-rate-limit (owners)', async () => {
    const owners: string[] = [];
    for (let i = 0; i < 6; i++)
      owners.push(...ids((await retrieve(sim, '/api/owners/', await registerLink(sim, 'bank'))).body));
    for (const id of owners) expect((await sim.call('DELETE', `/api/owners/${id}/`)).status).toBe(204);
  });
});

describe('LINK-DELETE-SYNC', () => {
  it('deleting the link takes all its data: every list of the link is empty, details are 404', async () => {
    const link = await registerLink(sim, 'bank');
    const kept = await registerLink(sim, 'bank');
    const bankPaths = RETRIEVALS.filter((r) => r.kind === 'bank');
    const detailPaths: string[] = [];
    for (const { path, body } of bankPaths) {
      const [first] = recordsOf((await retrieve(sim, path, link, body)).body);
      detailPaths.push(`${path}${first.id}/`);
    }
    await retrieve(sim, '/api/accounts/', kept);
    expect((await sim.call('DELETE', `/api/links/${link}/`)).status).toBe(204);
    for (const { path } of bankPaths)
      expect((await sim.call('GET', path, { query: { link } })).body.count).toBe(0);
    for (const path of detailPaths) expect((await sim.call('GET', path)).status).toBe(404);
    expect((await sim.call('GET', '/api/accounts/', { query: { link: kept } })).body.count).toBe(3);
  });
});
