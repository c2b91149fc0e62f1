/**
 * `POST /_ofkit/links/`: a link from a short description of its institution, accounts and records,
 * the rest filled in deterministically, every answer checked against both documents.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';

let sim: CheckedSimulator;
beforeEach(async () => {
  sim = await contractCheckedSimulator('described-seed');
  await sim.call('PUT', '/_ofkit/webhooks/', { body: { url: null, mode: 'record' } });
});
afterEach(() => sim.simulator.webhooks.close());

const DESCRIPTION = {
  institution: 'ofbank_br_retail',
  accounts: [
    {
      name: 'Conta Corrente',
      category: 'CHECKING_ACCOUNT',
      balance: { current: 1520.75 },
      transactions: [
        { description: 'Padaria Pao Dourado', amount: 18.5, type: 'OUTFLOW', value_date: '2026-10-28' },
        { description: 'Salario', amount: 4200, type: 'INFLOW', value_date: '2026-10-05' },
      ],
    },
    { name: 'Poupanca', category: 'SAVINGS_ACCOUNT' },
  ],
  records: { owners: [{ display_name: 'Maria Silva' }] },
};

const describe_ = (body: unknown, on = sim) => on.call('POST', '/_ofkit/links/', { body });
const list = (path: string, link: string, query: Record<string, string> = {}) =>
  sim.call('GET', path, { query: { link, ...query } }).then((answer) => answer.body);

describe('createDescribedLink', () => {
  it('stores the described accounts, transactions and owners, every other member filled in', async () => {
    const created = await describe_(DESCRIPTION);
    expect(created.status).toBe(201);
    expect(created.body.records).toEqual({ accounts: 2, transactions: 2, owners: 1 });
    const link = created.body.link;
    expect(link).toMatchObject({ institution: 'ofbank_br_retail', access_mode: 'single', status: 'valid' });
    const accounts = await list('/api/accounts/', link.id);
    expect(accounts.results.map((a: { name: string }) => a.name).sort()).toEqual([
      'Conta Corrente',
      'Poupanca',
    ]);
    const checking = accounts.results.find((a: { name: string }) => a.name === 'Conta Corrente');
    expect(checking.balance.current).toBe(1520.75);
    expect(checking.currency).toBe('BRL');
    const transactions = await list('/api/transactions/', link.id);
    expect(transactions.results.map((t: { description: string }) => t.description).sort()).toEqual([
      'Padaria Pao Dourado',
      'Salario',
    ]);
    expect(transactions.results.every((t: { account: { id: string } }) => t.account.id === checking.id)).toBe(
      true,
    );
    expect((await list('/api/owners/', link.id)).results[0].display_name).toBe('Maria Silva');
  });

  it('DATA-RETRIEVE: a retrieval answers the described records only, in the asked range', async () => {
    const { link } = (await describe_(DESCRIPTION)).body;
    const accounts = await sim.call('POST', '/api/accounts/', { body: { link: link.id } });
    expect(accounts.body.map((a: { name: string }) => a.name).sort()).toEqual(['Conta Corrente', 'Poupanca']);
    const october = await sim.call('POST', '/api/transactions/', {
      body: { link: link.id, date_from: '2026-10-20', date_to: '2026-10-31' },
    });
    expect(october.body.map((t: { description: string }) => t.description)).toEqual(['Padaria Pao Dourado']);
    expect((await list('/api/transactions/', link.id)).count).toBe(2);
    // A resource the description leaves out is generated as usual.
    const bills = await sim.call('POST', '/api/bills/', {
      body: { link: link.id, date_from: '2026-01-01', date_to: '2026-10-31' },
    });
    expect(bills.status).toBe(201);
  });

  it('is deterministic: the same seed and calls give the same link and records', async () => {
    const first = await describe_(DESCRIPTION);
    const other = await contractCheckedSimulator('described-seed');
    const second = await describe_(DESCRIPTION, other);
    expect(second.body).toEqual(first.body);
    const read = (on: CheckedSimulator) =>
      on.call('GET', '/api/transactions/', { query: { link: first.body.link.id } }).then((r) => r.body);
    expect(await read(other)).toEqual(await read(sim));
    await other.simulator.webhooks.close();
  });

  it('WEBHOOK-HISTORICAL: a recurrent described link sends historical updates that count its records', async () => {
    const { link } = (await describe_({ ...DESCRIPTION, access_mode: 'recurrent' })).body;
    await sim.simulator.webhooks.idle();
    const events = (await sim.call('GET', '/_ofkit/events/', { query: { link: link.id } })).body;
    const data = Object.fromEntries(
      events.map((e: { payload: { webhook_type: string; data: object } }) => [
        e.payload.webhook_type,
        e.payload.data,
      ]),
    );
    expect(data.ACCOUNTS).toEqual({ total_accounts: 2 });
    expect(data.OWNERS).toEqual({ total_owners: 1 });
    expect(data.TRANSACTIONS).toMatchObject({
      total_transactions: 2,
      total_inflow_transactions: 1,
      first_transaction_date: '2026-10-05',
      last_transaction_date: '2026-10-28',
    });
  });

  it('bills spread over the credit card accounts; without one, a 400 says to describe one', async () => {
    const withCard = await describe_({
      institution: 'ofbank_br_retail',
      accounts: [{ category: 'CREDIT_CARD', name: 'Cartao' }],
      records: { bills: [{}, {}] },
    });
    expect(withCard.body.records).toEqual({ accounts: 1, bills: 2 });
    const withoutCard = await describe_({
      institution: 'ofbank_br_retail',
      accounts: [{ category: 'CHECKING_ACCOUNT' }],
      records: { bills: [{}] },
    });
    expect(withoutCard.status).toBe(400);
    expect(withoutCard.body[0]).toMatchObject({ code: 'invalid', field: 'records.bills' });
    expect(withoutCard.body[0].message).toContain('CREDIT_CARD');
  });

  it('refuses, naming the field, what it cannot make, and stores nothing', async () => {
    const cases: [unknown, string, string][] = [
      [{ institution: 'nobank' }, 'institution', 'No institution nobank'],
      [{ institution: 'ofbank_br_retail', accounts: [{ id: 'x' }] }, 'accounts[0].id', "simulator's to set"],
      [
        { institution: 'ofbank_br_retail', accounts: [{ balance: { current: 'lots' } }] },
        'accounts[0].balance.current',
        'must be',
      ],
      [
        { institution: 'ofbank_br_retail', accounts: [{ transactions: [{ type: 'SIDEWAYS' }] }] },
        'accounts[0].transactions[0].type',
        'must be',
      ],
      [{ institution: 'ofbank_br_retail', records: { gold: [{}] } }, 'records.gold', 'No data resource gold'],
      [{ institution: 'ofbank_br_retail', records: { invoices: [{}] } }, 'records.invoices', 'offered by'],
      [
        { institution: 'ofbank_br_retail', records: { transactions: [{}] } },
        'records.transactions',
        'under `accounts`',
      ],
    ];
    for (const [body, field, message] of cases) {
      const refused = await describe_(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body[0].field).toBe(field);
      expect(refused.body[0].message).toContain(message);
    }
    expect((await sim.call('GET', '/api/links/')).body.count).toBe(0);
    expect((await describe_({ accounts: [] })).body[0]).toMatchObject({
      code: 'required',
      field: 'institution',
    });
  });
});
