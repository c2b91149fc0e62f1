import { beforeAll, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { LAST_MONTH, registerLink, retrieve } from '../../test-support/test-links.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator();
});

const list = (path: string, link: string) => sim.call('GET', path, { query: { link, page_size: 1000 } });

describe('DATA-RETRIEVE', () => {
  it.each([
    ['/api/accounts/', 'mxFiscal', {}],
    ['/api/invoices/', 'bank', { ...LAST_MONTH, type: 'INFLOW' }],
    ['/api/cl/invoices/', 'mxFiscal', { ...LAST_MONTH, type: 'INFLOW' }],
    ['/api/incomes/', 'brEmployment', {}],
    ['/api/br/employments/', 'metrics', {}],
  ] as const)('x-applies-to: %s for a %s link gets 400 naming the link', async (path, kind, body) => {
    const refused = await retrieve(sim, path, await registerLink(sim, kind), body);
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'unsupported_resource', field: 'link' });
    expect(refused.body[0].message).toMatch(/offered by/);
  });

  it('an account of the link limits the retrieval; one of another link, or of another category, gets 404', async () => {
    const link = await registerLink(sim, 'bank');
    const accounts = (await retrieve(sim, '/api/accounts/', link)).body;
    const [checking, savings, card] = accounts.map((a: { id: string }) => a.id);
    const balances = await retrieve(sim, '/api/br/balances/', link, { account: savings });
    expect(balances.body.map((b: { account: string }) => b.account)).toEqual([savings]);
    const notBalanced = await retrieve(sim, '/api/br/balances/', link, { account: card });
    expect(notBalanced.status).toBe(404);
    expect(notBalanced.body[0]).toMatchObject({ code: 'not_found', field: 'account' });
    const bills = (
      await retrieve(sim, '/api/bills/', link, { date_from: '2026-01-01', date_to: '2026-10-31' })
    ).body;
    expect(new Set(bills.map((b: { account: string }) => b.account))).toEqual(new Set([card]));
    const other = await registerLink(sim, 'bank');
    const foreign = await retrieve(sim, '/api/transactions/', other, { ...LAST_MONTH, account: checking });
    expect(foreign.body[0]).toMatchObject({ code: 'not_found', field: 'account' });
  });

  it('save_data false returns the records (200) without keeping them; true keeps them (201)', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const returned = await retrieve(sim, '/api/tax-status/', link, { save_data: false });
    expect(returned.status).toBe(200);
    expect(returned.body).toMatchObject({ link, id: expect.any(String) });
    expect((await list('/api/tax-status/', link)).body.count).toBe(0);
    expect((await retrieve(sim, '/api/tax-status/', link, { save_data: true })).status).toBe(201);
  });

  it('save_data false stores nothing, the parent accounts a retrieval reads included', async () => {
    const link = await registerLink(sim, 'bank');
    const transactions = await retrieve(sim, '/api/transactions/', link, { ...LAST_MONTH, save_data: false });
    expect(transactions.status).toBe(200);
    expect(transactions.body.length).toBeGreaterThan(0);
    expect((await list('/api/transactions/', link)).body.count).toBe(0);
    expect((await list('/api/accounts/', link)).body.count).toBe(0);
  });

  it('the bodies the provider takes: attach_pdf on tax status and compliance, attach_xml on retentions, token', async () => {
    const link = await registerLink(sim, 'mxFiscal');
    const compliance = await retrieve(sim, '/api/tax-compliance-status/', link, { attach_pdf: true });
    expect(compliance.status).toBe(201);
    expect(typeof compliance.body.pdf).toBe('string');
    const status = await retrieve(sim, '/api/tax-status/', link, { attach_pdf: true, token: '123456' });
    expect(status.status).toBe(201);
    expect(Buffer.from(status.body.pdf, 'base64').toString()).toMatch(/^%PDF-1\.4/);
    const plain = await retrieve(sim, '/api/tax-status/', link, {});
    expect(plain.body.pdf).toBeNull();
    const retentions = { ...LAST_MONTH, type: 'INFLOW', attach_xml: true };
    expect((await retrieve(sim, '/api/tax-retentions/', link, retentions)).status).toBe(201);
    const mfa = await registerLink(sim, 'mfaBank');
    expect((await retrieve(sim, '/api/accounts/', mfa, { token: '123456' })).status).toBe(201);
  });

  it('attach_xml and attach_pdf fill `xml` and `pdf`; without them they are null', async () => {
    const fiscal = await registerLink(sim, 'mxFiscal');
    const plain = await retrieve(sim, '/api/invoices/', fiscal, { ...LAST_MONTH, type: 'INFLOW' });
    for (const invoice of plain.body) expect(invoice.xml).toBeNull();
    const withXml = await retrieve(sim, '/api/invoices/', fiscal, {
      ...LAST_MONTH,
      type: 'INFLOW',
      attach_xml: true,
    });
    for (const invoice of withXml.body) expect(invoice.xml).toContain(`Folio="${invoice.id}"`);
    const retentions = { ...LAST_MONTH, type: 'INFLOW' };
    for (const plain of (await retrieve(sim, '/api/tax-retentions/', fiscal, retentions)).body)
      expect(plain.xml).toBeNull();
    const attached = await retrieve(sim, '/api/tax-retentions/', fiscal, { ...retentions, attach_xml: true });
    expect(attached.body.length).toBeGreaterThan(0);
    for (const retention of attached.body)
      expect(retention.xml).toContain(`Total="${retention.total_invoice_amount}"`);
    const employment = await registerLink(sim, 'metrics');
    const [record] = (await retrieve(sim, '/api/employment-records/', employment, { attach_pdf: true })).body;
    // The provider keeps the institute's documents in `files`.
    expect(record.files).toHaveLength(1);
    expect(record.files[0].type).toBe('PDF');
    expect(Buffer.from(record.files[0].value, 'base64').toString()).toMatch(/^%PDF-1\.4/);
    const [unattached] = (await retrieve(sim, '/api/employment-records/', employment, {})).body;
    expect(unattached.files).toEqual([]);
  });

  const retrieveAsync = (path: string, body: Record<string, unknown>) =>
    sim.call('POST', path, { body, headers: { 'x-service-request-mode': 'async' } });

  it.each([
    ['Chilean invoices', '/api/cl/invoices/', 'clFiscal', { type: 'INFLOW' }],
    ["transactions (the provider's)", '/api/transactions/', 'bank', {}],
  ] as const)(
    '%s with the async request mode: 202 with a request id, listed once the job ran',
    async (_, path, kind, extra) => {
      const link = await registerLink(sim, kind);
      // The checks run at once: an unknown link is refused before anything is scheduled.
      const refused = await retrieveAsync(path, {
        link: '00000000-0000-4000-8000-000000000000',
        ...LAST_MONTH,
        ...extra,
      });
      expect(refused.status).toBe(404);
      const accepted = await retrieveAsync(path, { link, ...LAST_MONTH, ...extra });
      expect(accepted.status).toBe(202);
      expect(accepted.body.request_id).toMatch(/^[0-9a-f]{32}$/);
      expect((await list(path, link)).body.count).toBe(0);
      await sim.simulator.tenant('tenant-a').clock.advance(1_000);
      expect((await list(path, link)).body.count).toBeGreaterThan(0);
    },
  );

  it('dates outside the institution history or in the future return what is available', async () => {
    const link = await registerLink(sim, 'bank');
    const future = await retrieve(sim, '/api/transactions/', link, {
      date_from: '2027-01-01',
      date_to: '2027-01-31',
    });
    expect(future.status).toBe(201);
    expect(future.body).toEqual([]);
    const old = await retrieve(sim, '/api/transactions/', link, {
      date_from: '2000-01-01',
      date_to: '2021-11-05',
    });
    expect(old.body.length).toBeGreaterThan(0);
    for (const t of old.body) expect(t.value_date >= '2021-11-01').toBe(true);
  });

  it('a link whose credentials stopped working (status invalid) gets 400 invalid_credentials', async () => {
    const link = await registerLink(sim, 'bank');
    const tenant = sim.simulator.tenant('tenant-a');
    const stored = await tenant.store.get('/api/links/', link);
    await tenant.store.put('/api/links/', { ...stored!, status: 'invalid' });
    const refused = await retrieve(sim, '/api/owners/', link);
    expect(refused.status).toBe(400);
    expect(refused.body[0]).toMatchObject({ code: 'invalid_credentials', field: 'link' });
  });

  it('a missing link in the body is 400 required/link', async () => {
    const missing = await sim.call('POST', '/api/owners/', { body: {} });
    expect(missing.status).toBe(400);
    expect(missing.body[0]).toMatchObject({ code: 'required', field: 'link' });
  });
});
