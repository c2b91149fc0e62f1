/**
 * The provider's official Node SDK (npm `belvo`, pinned) as a client of the simulator, used the way its
 * README tells a user to: `new Client(id, password, url)`, `connect()`, then the resources. The
 * simulator runs over HTTP on 127.0.0.1, port 0, and every response it sends is checked against the
 * document (contractCheckedExchange); a violation fails the test even when the SDK would not notice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StartedSimulator, startSimulator } from '../../simulator/src/start-simulator.js';
import {
  contractCheckedExchange,
  FIXED_NOW,
  TEST_KEYS,
} from '../../simulator/test-support/contract-checked-simulator.js';
import {
  type BelvoClient,
  type Json,
  type RequestErrorLike,
  type RetrievedResource,
  recordsOf,
  rejectionOf,
  SdkClient,
} from './official-sdk.js';

/** Resources the SDK 0.28.0 has and this version of the API does not: not called, with the reason. */
const NOT_IN_THIS_VERSION: Record<string, string> = {
  balances: '`api/balances/` is not in this version (its balances are Brazil-only, `/api/br/balances/`).',
  statements: '`api/statements/` is not in this version.',
  taxDeclarations: '`api/tax-declarations/` is not in this version.',
  investmentsPortfolios: '`investments/portfolios/` is not in this version (Brazil: `/api/br/investments/`).',
};

const KEY = TEST_KEYS[0]!;
const NO_SUCH_ID = '00000000-0000-4000-8000-000000000000';
const LAST_MONTH = ['2026-10-01', '2026-10-31'] as const;
let started: StartedSimulator;
let baseUrl: string;
let client: BelvoClient;
const violations: string[] = [];

beforeAll(async () => {
  started = await startSimulator({
    seed: 'official-sdk',
    environment: 'production',
    keys: TEST_KEYS,
    realTime: () => FIXED_NOW,
    tickMs: 0,
    onExchange: contractCheckedExchange(violations),
  });
  baseUrl = started.url;
  client = new SdkClient(KEY.secretId, KEY.secretPassword, baseUrl);
  await client.connect();
});

afterAll(async () => {
  await started.close();
  expect(violations).toEqual([]);
});

describe('the official SDK (belvo 0.28.0) against the simulator', () => {
  it('lists the resources it has that this version does not, and has every other one', () => {
    for (const name of Object.keys(NOT_IN_THIS_VERSION)) expect(client).toHaveProperty(name);
  });

  it('institutions: list (following its pagination) and detail', async () => {
    const institutions = await client.institutions.list({ filters: { page_size: 2 } });
    expect(institutions.length).toBeGreaterThan(2);
    const first = institutions[0]!;
    expect(await client.institutions.detail(first.id)).toEqual(first);
  });

  it('links: register single and recurrent, list, detail, patch, update credentials, widget token, delete', async () => {
    const single = await client.links.register('ofbank_br_retail', '76109277673', 'secret');
    expect(single).toMatchObject({ access_mode: 'single', status: 'valid' });
    const recurrent = await client.links.register('ofbank_br_retail', '76109277673', 'secret', {
      accessMode: 'recurrent',
      externalId: 'sdk-user-1',
      usernameType: '001',
    });
    expect(recurrent).toMatchObject({ access_mode: 'recurrent', external_id: 'sdk-user-1' });
    const listed = await client.links.list({ filters: { page_size: 1 } });
    expect(listed.map((link) => link.id)).toEqual(expect.arrayContaining([single.id, recurrent.id]));
    expect(await client.links.detail(single.id)).toEqual(single);
    expect(await client.links.patch(single.id, { accessMode: 'recurrent' })).toMatchObject({
      access_mode: 'recurrent',
    });
    expect(await client.links.update(single.id, { password: 'new-secret' })).toMatchObject({
      status: 'valid',
    });
    const token = await client.links.token(single.id, 'read_institutions,write_links,read_links');
    expect(token).toMatchObject({ expires_in: expect.any(Number) });
    const widget = await client.widgetToken.create({ link: recurrent.id });
    expect(widget.access).toEqual(expect.any(String));
    expect(await client.links.delete(single.id)).toBe(true);
    expect(await client.links.delete(single.id)).toBe(false);
  });

  it('MFA: registration 428 names its link; resume confirms it; a retrieval 428 resumes the same way', async () => {
    const paused = await rejectionOf(client.links.register('tokenbank_br_business', '12345678000190', 'p'));
    expect(paused.statusCode).toBe(428);
    const item = paused.detail[0]!;
    expect(item).toMatchObject({ code: 'token_required', session: expect.stringMatching(/^[a-f0-9]{32}$/) });
    const wrong = await rejectionOf(client.links.resume(item.session, '000000', item.link));
    expect(wrong).toMatchObject({ statusCode: 400, detail: [{ code: 'invalid_token' }] });
    const link = await client.links.resume(item.session, '123456', item.link);
    expect(link).toMatchObject({ id: item.link, status: 'valid' });
    const reused = await rejectionOf(client.links.resume(item.session, '123456', item.link));
    expect(reused).toMatchObject({ statusCode: 400, detail: [{ code: 'session_expired' }] });
    const retrieval = await rejectionOf(client.accounts.retrieve(link.id));
    expect(retrieval.statusCode).toBe(428);
    const session = retrieval.detail[0]!.session;
    const accounts = await client.accounts.resume(session, '123456', link.id);
    expect(accounts.length).toBeGreaterThan(0);
    expect(await client.accounts.retrieve(link.id, { token: '123456', saveData: false })).toHaveLength(
      accounts.length,
    );
  });

  it('banking: owners, accounts, transactions, incomes, recurring expenses, risk insights', async () => {
    const link = (await client.links.register('ofbank_br_retail', '76109277673', 'secret')).id;
    const owners = await client.owners.retrieve(link);
    const accounts = await client.accounts.retrieve(link, { saveData: true });
    const transactions = await client.transactions.retrieve(link, LAST_MONTH[0], {
      dateTo: LAST_MONTH[1],
      account: accounts[0]!.id,
    });
    for (const t of transactions)
      expect(t.value_date >= LAST_MONTH[0] && t.value_date <= LAST_MONTH[1]).toBe(true);
    const listed = await client.transactions.list({ filters: { link, page_size: 5 } });
    expect(listed.map((t) => t.id).sort()).toEqual(transactions.map((t) => t.id).sort());
    expect(await client.transactions.detail(transactions[0]!.id)).toEqual(transactions[0]);
    expect(await client.owners.list({ filters: { link } })).toHaveLength(owners.length);
    expect(await client.accounts.detail(accounts[0]!.id)).toEqual(accounts[0]);
    for (const resource of ['incomes', 'recurringExpense', 'riskInsights'] as const) {
      // Incomes answer the link's one record, as the provider does; the others a list.
      const records = recordsOf(await client[resource].retrieve(link, { saveData: true }));
      expect(records.length, resource).toBeGreaterThan(0);
      expect(await client[resource].list({ filters: { link } }), resource).toHaveLength(records.length);
      expect(await client[resource].delete(records[0]!.id), resource).toBe(true);
    }
    const unsaved = await client.transactions.retrieve(link, LAST_MONTH[0], {
      dateTo: LAST_MONTH[1],
      saveData: false,
    });
    expect(unsaved.length).toBeGreaterThan(0);
    expect(await client.transactions.delete(transactions[0]!.id)).toBe(true);
    expect(await client.owners.delete(owners[0]!.id)).toBe(true);
    expect(await client.accounts.delete(accounts[0]!.id)).toBe(true);
  });

  it('fiscal: invoices, tax returns (yearly and monthly), tax status, tax compliance, tax retentions', async () => {
    const link = (await client.links.register('ofsat_mx_fiscal', 'GOMA850315AB1', 'ciec')).id;
    const invoices = await client.invoices.retrieve(link, ...LAST_MONTH, 'INFLOW', { attachXML: true });
    for (const invoice of invoices) expect(invoice.xml).toEqual(expect.any(String));
    const yearly = await client.taxReturns.retrieve(link, '2024', '2025', { attachPDF: true });
    expect(yearly.map((r) => r.year)).toEqual([2024, 2025]);
    const monthly = await client.taxReturns.retrieve(link, '2026-01-01', '2026-02-28', { type: 'monthly' });
    expect(monthly.map((r) => r.month)).toEqual([1, 2]);
    // The tax status and the tax compliance status answer the one record, as the provider does.
    const status = recordsOf(await client.taxStatus.retrieve(link, { attachPDF: true }));
    const compliance = recordsOf(await client.taxComplianceStatus.retrieve(link, { attachPDF: true }));
    const retentions = await client.taxRetentions.retrieve(link, ...LAST_MONTH, 'OUTFLOW', {
      attachXML: true,
    });
    for (const [resource, records] of [
      ['invoices', invoices],
      ['taxReturns', [...yearly, ...monthly]],
      ['taxStatus', status],
      ['taxComplianceStatus', compliance],
      ['taxRetentions', retentions],
    ] as const) {
      expect(records.length, resource).toBeGreaterThan(0);
      expect(await client[resource].detail(records[0]!.id), resource).toEqual(records[0]);
      expect(await client[resource].list({ filters: { link, page_size: 3 } }), resource).toHaveLength(
        Math.min(records.length, 100),
      );
      expect(await client[resource].delete(records[0]!.id), resource).toBe(true);
    }
  });

  it('retrieved three times, every resource keeps its ids and its list holds each record once', async () => {
    const bank = (await client.links.register('ofbank_br_retail', '76109277673', 'secret')).id;
    const fiscal = (await client.links.register('ofsat_mx_fiscal', 'GOMA850315AB1', 'ciec')).id;
    const employment = (await client.links.register('ofimss_mx_employment', 'GOMA850315HDFNRN09')).id;
    const retrievals: [RetrievedResource, string, () => Promise<Json | Json[]>][] = [
      ['owners', bank, () => client.owners.retrieve(bank)],
      ['accounts', bank, () => client.accounts.retrieve(bank)],
      [
        'transactions',
        bank,
        () => client.transactions.retrieve(bank, LAST_MONTH[0], { dateTo: LAST_MONTH[1] }),
      ],
      ['incomes', bank, () => client.incomes.retrieve(bank)],
      ['recurringExpense', bank, () => client.recurringExpense.retrieve(bank)],
      ['riskInsights', bank, () => client.riskInsights.retrieve(bank)],
      ['invoices', fiscal, () => client.invoices.retrieve(fiscal, ...LAST_MONTH, 'INFLOW')],
      ['taxReturns', fiscal, () => client.taxReturns.retrieve(fiscal, '2023', '2025')],
      [
        'taxReturns',
        fiscal,
        () => client.taxReturns.retrieve(fiscal, '2026-01-01', '2026-03-31', { type: 'monthly' }),
      ],
      ['taxStatus', fiscal, () => client.taxStatus.retrieve(fiscal)],
      ['taxComplianceStatus', fiscal, () => client.taxComplianceStatus.retrieve(fiscal)],
      ['taxRetentions', fiscal, () => client.taxRetentions.retrieve(fiscal, ...LAST_MONTH, 'OUTFLOW')],
      ['employmentRecords', employment, () => client.employmentRecords.retrieve(employment)],
    ];
    for (const [resource, link, retrieve] of retrievals) {
      const ids = async () => recordsOf(await retrieve()).map((record) => record.id);
      const first = await ids();
      expect(first.length, resource).toBeGreaterThan(0);
      for (const time of ['second', 'third']) expect(await ids(), `${resource}, ${time} time`).toEqual(first);
      const listed = (await client[resource].list({ limit: 10_000, filters: { link, page_size: 1000 } })).map(
        (r) => r.id,
      );
      expect(new Set(listed).size, `${resource}: listed once each`).toBe(listed.length);
      expect(listed, resource).toEqual(expect.arrayContaining(first));
    }
    // Three yearly returns (2023-2025) and three monthly ones (2026-01..03), whatever the repeats.
    expect(await client.taxReturns.list({ filters: { link: fiscal } })).toHaveLength(6);
  });

  it('employment records', async () => {
    const link = (await client.links.register('ofimss_mx_employment', 'GOMA850315HDFNRN09')).id;
    const records = await client.employmentRecords.retrieve(link, { attachPDF: false });
    expect(records).toHaveLength(1);
    expect(await client.employmentRecords.detail(records[0]!.id)).toEqual(records[0]);
    expect(await client.employmentRecords.delete(records[0]!.id)).toBe(true);
  });

  it('errors: 400 with the field, 404, and 401 for keys the simulator does not know', async () => {
    const invalid = await rejectionOf(client.links.register('nobank_xx', 'u', 'p'));
    expect(invalid).toMatchObject({ statusCode: 400, detail: [{ field: 'institution' }] });
    const missing: RequestErrorLike = await rejectionOf(client.links.detail(NO_SUCH_ID));
    expect(missing).toMatchObject({ statusCode: 404, detail: [{ code: 'not_found' }] });
    const stranger = new SdkClient('nobody', 'nothing', baseUrl);
    await expect(stranger.connect()).rejects.toThrow('Login failed.');
    const revoked = new SdkClient(KEY.secretId, KEY.secretPassword, baseUrl);
    await revoked.connect();
    revoked.session.session.defaults.auth = { username: 'nobody', password: 'nothing' };
    const unauthorized = await rejectionOf(revoked.institutions.list());
    expect(unauthorized.statusCode ?? unauthorized.response?.status).toBe(401);
  });
});
