/**
 * The reference client lists institutions, registers links (LINK-REGISTER), answers an MFA challenge
 * (LINK-MFA-428) and reads a link back.
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { absoluteUrl, dateTime, EXAMPLE_IDS, enumOf, fromState, page, requestId, uuid } from './matchers.js';
import { AUTHORIZATION, clientFor, createReferencePact, JSON_REQUEST } from './reference-pact.js';

const { eachLike, equal, integer, string } = MatchersV3;
const pact = createReferencePact();

/** The end user's credentials come from the provider (its catalogue), so any provider can verify. */
const registration = {
  institution: fromState('{institution}', 'ofbank_br_retail'),
  username: fromState('{username}', '76109277673'),
  password: fromState('{password}', 'correct-horse'),
  access_mode: 'recurrent',
  external_id: 'customer-4521',
};
const REGISTRATION = {
  institution: 'ofbank_br_retail',
  username: '76109277673',
  password: 'correct-horse',
  access_mode: 'recurrent',
  external_id: 'customer-4521',
} as const;

/** A recurrent link as the client relies on it. */
const recurrentLink = {
  id: uuid(EXAMPLE_IDS.link),
  institution: string('ofbank_br_retail'),
  access_mode: 'recurrent',
  status: enumOf('LinkStatus', undefined, 'valid'),
  created_at: dateTime(),
  fetch_resources: eachLike(enumOf('FetchResource', undefined, 'ACCOUNTS')),
};

const institution = {
  // The provider's institution ids are integers (the document's `Institution.id`).
  id: integer(EXAMPLE_IDS.institution),
  name: MatchersV3.regex('^[a-z0-9_]+$', 'ofbank_br_retail'),
  display_name: string('OF Bank Varejo'),
  type: enumOf('Institution', 'type', 'bank'),
  country_codes: eachLike(MatchersV3.regex('^[A-Z]{2}$', 'BR')),
  status: enumOf('Institution', 'status', 'healthy'),
  form_fields: eachLike({
    name: string('username'),
    type: string('text'),
    label: string('CPF'),
  }),
};

describe('Pact: institutions and link registration', () => {
  it('lists the first page of institutions, two per page (PAGE-DEFAULT, PAGE-NAV)', async () => {
    const next = absoluteUrl('http://127.0.0.1:4010/api/institutions/?page=2&page_size=2');
    await pact
      .addInteraction()
      .uponReceiving('a request for the first page of institutions, two per page')
      .withRequest('GET', '/api/institutions/', (request) =>
        request.headers(AUTHORIZATION).query({ page: '1', page_size: '2' }),
      )
      .willRespondWith(200, (response) =>
        response.jsonBody(page(eachLike(institution), { count: integer(8), next, previous: null })),
      )
      .executeTest(async (mockServer) => {
        const { data } = await clientFor(mockServer).GET('/api/institutions/', {
          params: { query: { page: 1, page_size: 2 } },
        });
        expect(data?.previous).toBeNull();
        expect(data?.results[0]?.form_fields?.[0]?.name).toBe('username');
      });
  });

  it('registers a link at an institution that asks for no token: 201 (LINK-REGISTER)', async () => {
    await pact
      .addInteraction()
      .given('the institution accepts the credentials')
      .uponReceiving('a registration of a recurrent link that needs no token')
      .withRequest('POST', '/api/links/', (request) => request.headers(JSON_REQUEST).jsonBody(registration))
      .willRespondWith(201, (response) =>
        response.jsonBody({ ...recurrentLink, external_id: 'customer-4521', status: 'valid' }),
      )
      .executeTest(async (mockServer) => {
        const { data, response } = await clientFor(mockServer).POST('/api/links/', { body: REGISTRATION });
        expect(response.status).toBe(201);
        expect(data?.external_id).toBe('customer-4521');
      });
  });

  it('gets 428 with a session when the institution asks for a token (LINK-MFA-428)', async () => {
    const tokenRequired = eachLike({
      request_id: requestId(),
      message: string('A MFA token is required by the institution to login.'),
      code: equal('token_required'),
      session: string(EXAMPLE_IDS.session),
      expiry: integer(600),
      link: uuid(EXAMPLE_IDS.link),
      token_generation_data: {
        instructions: string('Use the code sent to your phone.'),
        type: string('numeric'),
        value: string(''),
      },
    });
    await pact
      .addInteraction()
      .given('the institution requires a token')
      .uponReceiving('a registration of a recurrent link at an institution that asks for a token')
      .withRequest('POST', '/api/links/', (request) => request.headers(JSON_REQUEST).jsonBody(registration))
      .willRespondWith(428, (response) => response.jsonBody(tokenRequired))
      .executeTest(async (mockServer) => {
        const { error, response } = await clientFor(mockServer).POST('/api/links/', { body: REGISTRATION });
        expect(response.status).toBe(428);
        expect(error?.[0]?.code).toBe('token_required');
      });
  });

  it('resumes the paused registration with the token: 200 with the link (LINK-MFA-428)', async () => {
    const resume = {
      session: fromState('{session}', EXAMPLE_IDS.session),
      token: fromState('{token}', '123456'),
      link: fromState('{linkId}', EXAMPLE_IDS.link),
    };
    await pact
      .addInteraction()
      .given('a link registration is waiting for a token')
      .uponReceiving('a resumption of a registration with the MFA token')
      .withRequest('PATCH', '/api/links/', (request) => request.headers(JSON_REQUEST).jsonBody(resume))
      .willRespondWith(200, (response) => response.jsonBody({ ...recurrentLink, status: 'valid' }))
      .executeTest(async (mockServer) => {
        const body = { session: EXAMPLE_IDS.session, token: '123456', link: EXAMPLE_IDS.link };
        const { data, response } = await clientFor(mockServer).PATCH('/api/links/', { body });
        expect(response.status).toBe(200);
        expect(data?.access_mode).toBe('recurrent');
      });
  });

  it('reads a recurrent link back', async () => {
    await pact
      .addInteraction()
      .given('a recurrent link exists')
      .uponReceiving('a request for a recurrent link')
      .withRequest('GET', fromState('/api/links/{linkId}/', `/api/links/${EXAMPLE_IDS.link}/`), (request) =>
        request.headers(AUTHORIZATION),
      )
      .willRespondWith(200, (response) => response.jsonBody(recurrentLink))
      .executeTest(async (mockServer) => {
        const { data } = await clientFor(mockServer).GET('/api/links/{id}/', {
          params: { path: { id: EXAMPLE_IDS.link } },
        });
        expect(data?.id).toBe(EXAMPLE_IDS.link);
      });
  });
});
