/**
 * The reference client refreshes links (LINK-REFRESH-202) and meets the cooldown
 * (LINK-REFRESH-COOLDOWN), deletes them synchronously and asynchronously (LINK-DELETE-SYNC,
 * LINK-DELETE-ASYNC) and meets the deletion rate limit (DELETE-RATE-LIMIT).
 */
import { MatchersV3 } from '@pact-foundation/pact';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_IDS, errorList, fromState, requestId } from './matchers.js';
import { AUTHORIZATION, clientFor, createReferencePact } from './reference-pact.js';

const { regex } = MatchersV3;
const pact = createReferencePact();
const linkPath = (suffix = '') =>
  fromState(`/api/links/{linkId}/${suffix}`, `/api/links/${EXAMPLE_IDS.link}/${suffix}`);
const path = { id: EXAMPLE_IDS.link };

/** LINK-REFRESH-COOLDOWN: the 409's message names the minutes left (`minutes` is a regex fragment). */
function cooldown(minutes: string, example: number) {
  const message = `This link was refreshed recently. Please wait ${example} minutes before refreshing it again.`;
  return errorList('refresh_cooldown', regex(`^.*\\b${minutes} minutes?\\b.*$`, message));
}

describe('Pact: refreshing a link (LINK-REFRESH-202, LINK-REFRESH-COOLDOWN)', () => {
  const refreshCases = [
    { state: 'a recurrent link exists', status: 202, body: { request_id: requestId() } },
    { state: 'the link was refreshed 11 minutes ago', status: 202, body: { request_id: requestId() } },
    { state: 'the link was just refreshed', status: 409, body: cooldown('(9|10)', 10) },
    { state: 'the link was refreshed 5 minutes ago', status: 409, body: cooldown('[45]', 5) },
  ];
  it.each(refreshCases)('refresh when $state: $status', async ({ state, status, body }) => {
    await pact
      .addInteraction()
      .given(state)
      .uponReceiving(`a refresh of a link, when ${state}`)
      .withRequest('POST', linkPath('refresh/'), (request) => request.headers(AUTHORIZATION))
      .willRespondWith(status, (response) => response.jsonBody(body))
      .executeTest(async (mockServer) => {
        const { response } = await clientFor(mockServer).POST('/api/links/{id}/refresh/', {
          params: { path },
        });
        expect(response.status).toBe(status);
      });
  });
});

describe('Pact: deleting a link (LINK-DELETE-SYNC, LINK-DELETE-ASYNC, DELETE-RATE-LIMIT)', () => {
  it('deletes a link synchronously: 204', async () => {
    await pact
      .addInteraction()
      .given('a link exists')
      .uponReceiving('a synchronous deletion of a link')
      .withRequest('DELETE', linkPath(), (request) => request.headers(AUTHORIZATION))
      .willRespondWith(204)
      .executeTest(async (mockServer) => {
        const { response } = await clientFor(mockServer).DELETE('/api/links/{id}/', { params: { path } });
        expect(response.status).toBe(204);
      });
  });

  it('deletes a link asynchronously: 202 with a request id', async () => {
    await pact
      .addInteraction()
      .given('a link exists')
      .uponReceiving('an asynchronous deletion of a link')
      .withRequest('DELETE', linkPath(), (request) =>
        request.headers({ ...AUTHORIZATION, 'X-Service-Request-Mode': 'async' }),
      )
      .willRespondWith(202, (response) => response.jsonBody({ request_id: requestId() }))
      .executeTest(async (mockServer) => {
        const header = { 'X-Service-Request-Mode': 'async' } as const;
        const { data, response } = await clientFor(mockServer).DELETE('/api/links/{id}/', {
          params: { path, header },
        });
        expect(response.status).toBe(202);
        expect(data?.request_id).toBeTypeOf('string');
      });
  });

  it('gets 429 for a sixth synchronous deletion within a minute', async () => {
    const message = 'Too many deletions. At most 5 per minute are allowed; retry in 42 seconds.';
    await pact
      .addInteraction()
      .given('five links were deleted in the last minute')
      .uponReceiving('a sixth synchronous deletion of a link within a minute')
      .withRequest('DELETE', linkPath(), (request) => request.headers(AUTHORIZATION))
      .willRespondWith(429, (response) =>
        response.jsonBody(errorList('too_many_requests', MatchersV3.string(message))),
      )
      .executeTest(async (mockServer) => {
        const { response } = await clientFor(mockServer).DELETE('/api/links/{id}/', { params: { path } });
        expect(response.status).toBe(429);
      });
  });
});
