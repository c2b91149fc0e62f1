/**
 * The reference client retrieves a link's accounts and transactions (DATA-RETRIEVE), lists them page by
 * page (PAGE-DEFAULT, PAGE-NAV, LIST-LINK-REQUIRED), reads one (DATA-DETAIL) and follows up a webhook
 * with `id__in` (WEBHOOK-FOLLOW-UP, FILTER-IN).
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { absoluteUrl, date, dateTime, EXAMPLE_IDS, enumOf, fromState, page, uuid } from './matchers.js';
import { AUTHORIZATION, clientFor, createReferencePact, JSON_REQUEST } from './reference-pact.js';

const { atLeastLike, eachLike, integer, number, regex, string } = MatchersV3;
const pact = createReferencePact();
const linkId = fromState('{linkId}', EXAMPLE_IDS.link);

/**
 * What the client reads of an account or a transaction. Fields whose `null`-ness depends on the data
 * (RESP-REQUIRED-NULLABLE) are left out: a provider may send them, Pact ignores what is not expected.
 */
const account = {
  id: uuid(EXAMPLE_IDS.account),
  link: uuid(EXAMPLE_IDS.link),
  institution: { name: string('ofbank_br_retail'), type: enumOf('AccountInstitution', 'type', 'bank') },
  collected_at: dateTime(),
  created_at: dateTime('2026-11-01T12:00:01.000Z'),
  category: enumOf('Account', 'category', 'CHECKING_ACCOUNT'),
  type: string('Conta Corrente'),
  name: string('Conta Corrente Pessoa Fisica'),
  balance: { current: number(5874.13) },
  currency: regex('^[A-Z]{3}$', 'BRL'),
};
const transaction = {
  id: uuid(EXAMPLE_IDS.transaction),
  link: uuid(EXAMPLE_IDS.link),
  // The provider nests the whole account; the client reads its id.
  account: { id: uuid(EXAMPLE_IDS.account) },
  collected_at: dateTime(),
  created_at: dateTime('2026-11-01T12:00:03.000Z'),
  value_date: date('2026-10-30'),
  amount: number(87.9),
  currency: regex('^[A-Z]{3}$', 'BRL'),
  description: string('COMPRA CARTAO DEB - PADARIA PAO DOURADO'),
  type: enumOf('Transaction', 'type', 'OUTFLOW'),
  status: enumOf('Transaction', 'status', 'PROCESSED'),
};
const listUrl = (collection: string, query: string) =>
  absoluteUrl(`http://127.0.0.1:4010/api/${collection}/?link=${EXAMPLE_IDS.link}&${query}`);

describe('Pact: accounts (DATA-RETRIEVE, DATA-DETAIL, PAGE-*)', () => {
  it('retrieves the accounts of a link: 201 with the records', async () => {
    await pact
      .addInteraction()
      .given('a recurrent link exists')
      .uponReceiving('a retrieval of the accounts of a link')
      .withRequest('POST', '/api/accounts/', (request) =>
        request.headers(JSON_REQUEST).jsonBody({ link: linkId }),
      )
      .willRespondWith(201, (response) => response.jsonBody(eachLike(account)))
      .executeTest(async (mockServer) => {
        const body = { link: EXAMPLE_IDS.link };
        const { data } = await clientFor(mockServer).POST('/api/accounts/', { body });
        expect(data?.[0]?.link).toBe(EXAMPLE_IDS.link);
      });
  });

  it('lists the accounts of a link in one page', async () => {
    await pact
      .addInteraction()
      .given("the link's accounts were retrieved")
      .uponReceiving('a request for the accounts of a link, 50 per page')
      .withRequest('GET', '/api/accounts/', (request) =>
        request.headers(AUTHORIZATION).query({ link: linkId, page: '1', page_size: '50' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody(page(eachLike(account), { next: null, previous: null })),
      )
      .executeTest(async (mockServer) => {
        const query = { link: EXAMPLE_IDS.link, page: 1, page_size: 50 };
        const { data } = await clientFor(mockServer).GET('/api/accounts/', { params: { query } });
        expect(data?.results).toHaveLength(1);
      });
  });

  it('reads one account', async () => {
    await pact
      .addInteraction()
      .given("the link's accounts were retrieved")
      .uponReceiving('a request for one account')
      .withRequest(
        'GET',
        fromState('/api/accounts/{accountId}/', `/api/accounts/${EXAMPLE_IDS.account}/`),
        (request) => request.headers(AUTHORIZATION),
      )
      .willRespondWith(200, (response) => response.jsonBody(account))
      .executeTest(async (mockServer) => {
        const path = { id: EXAMPLE_IDS.account };
        const { data } = await clientFor(mockServer).GET('/api/accounts/{id}/', { params: { path } });
        expect(data?.id).toBe(EXAMPLE_IDS.account);
      });
  });
});

describe('Pact: transactions (DATA-RETRIEVE, PAGE-NAV, FILTER-IN, WEBHOOK-FOLLOW-UP)', () => {
  it('retrieves the transactions of a link for a date range: 201 with the records', async () => {
    const body = {
      link: linkId,
      date_from: fromState('{dateFrom}', '2026-10-01'),
      date_to: fromState('{dateTo}', '2026-10-31'),
    };
    await pact
      .addInteraction()
      .given('a recurrent link exists')
      .uponReceiving('a retrieval of the transactions of a link for the last 30 days')
      .withRequest('POST', '/api/transactions/', (request) => request.headers(JSON_REQUEST).jsonBody(body))
      .willRespondWith(201, (response) => response.jsonBody(eachLike(transaction)))
      .executeTest(async (mockServer) => {
        const sent = { link: EXAMPLE_IDS.link, date_from: '2026-10-01', date_to: '2026-10-31' };
        const { data } = await clientFor(mockServer).POST('/api/transactions/', { body: sent });
        // 200/201 carry the records; 202 (the async mode, not asked here) only a request id.
        const records = Array.isArray(data) ? data : [];
        expect(records[0]?.account?.id).toBe(EXAMPLE_IDS.account);
      });
  });

  it('walks the transactions one per page: page 2 links to pages 1 and 3', async () => {
    const links = {
      count: integer(3),
      next: listUrl('transactions', 'page=3&page_size=1'),
      previous: listUrl('transactions', 'page=1&page_size=1'),
    };
    await pact
      .addInteraction()
      .given("the link's transactions were retrieved")
      .uponReceiving('a request for the second page of the transactions of a link, one per page')
      .withRequest('GET', '/api/transactions/', (request) =>
        request.headers(AUTHORIZATION).query({ link: linkId, page: '2', page_size: '1' }),
      )
      .willRespondWith(200, (response) => response.jsonBody(page(eachLike(transaction), links)))
      .executeTest(async (mockServer) => {
        const query = { link: EXAMPLE_IDS.link, page: 2, page_size: 1 };
        const { data } = await clientFor(mockServer).GET('/api/transactions/', { params: { query } });
        expect(data?.next).toContain('page=3');
      });
  });

  it('reads one transaction', async () => {
    const path = `/api/transactions/${EXAMPLE_IDS.transaction}/`;
    await pact
      .addInteraction()
      .given("the link's transactions were retrieved")
      .uponReceiving('a request for one transaction')
      .withRequest('GET', fromState('/api/transactions/{transactionId}/', path), (request) =>
        request.headers(AUTHORIZATION),
      )
      .willRespondWith(200, (response) => response.jsonBody(transaction))
      .executeTest(async (mockServer) => {
        const params = { path: { id: EXAMPLE_IDS.transaction } };
        const { data } = await clientFor(mockServer).GET('/api/transactions/{id}/', { params });
        expect(data?.id).toBe(EXAMPLE_IDS.transaction);
      });
  });

  it('follows up a transactions_updated webhook with id__in', async () => {
    const ids = `${EXAMPLE_IDS.transaction},${EXAMPLE_IDS.otherTransaction}`;
    await pact
      .addInteraction()
      .given('a webhook named two updated transactions of the link')
      .uponReceiving('a follow-up read of the two transactions a webhook named')
      .withRequest('GET', '/api/transactions/', (request) =>
        request.headers(AUTHORIZATION).query({ link: linkId, id__in: fromState('{transactionIds}', ids) }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody(page(atLeastLike(transaction, 2, 2), { count: 2, next: null, previous: null })),
      )
      .executeTest(async (mockServer) => {
        const query = { link: EXAMPLE_IDS.link, id__in: ids };
        const { data } = await clientFor(mockServer).GET('/api/transactions/', { params: { query } });
        expect(data?.count).toBe(2);
      });
  });
});
