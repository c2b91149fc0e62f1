/**
 * `pact check-spec`: the committed reference pacts agree with the document; pacts the document forbids
 * fail, each with its reason in words and in JUnit.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pact } from '../../scripts/cli/pact.js';
import { pactFileOfRun } from '../consumer/reference-pact.js';
import { checkPacts } from './check-pacts.js';
import { checkSpecJUnit, describeCheckSpec } from './check-spec-report.js';

/** The pact file of this run's consumer tests (the committed one when they did not run). */
const PACTS = pactFileOfRun();
const BASIC = { authorization: ['Basic aWQ6c2VjcmV0'] };
const LINK_ID = '30cb4806-6e00-48a4-91c9-ca55968576c8';

type Message = { status?: number; headers?: Record<string, string[]>; body?: unknown; query?: object };

/** A V4 pact with one HTTP interaction, written to a fresh directory. */
async function pactWith(
  description: string,
  method: string,
  path: string,
  request: Message,
  response: Message,
) {
  const json = (body: unknown) =>
    body === undefined ? {} : { body: { content: body, contentType: 'application/json', encoded: false } };
  const interaction = {
    type: 'Synchronous/HTTP',
    description,
    request: { method, path, headers: BASIC, ...request, ...json(request.body) },
    response: { status: response.status, ...json(response.body) },
  };
  const document = {
    consumer: { name: 'client' },
    provider: { name: 'open-finance-api' },
    interactions: [interaction],
    metadata: { pactSpecification: { version: '4.0' } },
  };
  const directory = await mkdtemp(join(tmpdir(), 'ofkit-check-spec-'));
  await writeFile(join(directory, 'client-open-finance-api.json'), JSON.stringify(document));
  return directory;
}

async function problemsOf(...args: Parameters<typeof pactWith>) {
  const report = await checkPacts([await pactWith(...args)]);
  expect(report.ok).toBe(false);
  return report.verdicts[0]?.problems ?? [];
}

describe('pact check-spec', () => {
  it('finds every interaction of the reference pacts valid against the document', async () => {
    const report = await checkPacts([PACTS]);
    expect(report.verdicts.length).toBeGreaterThanOrEqual(20);
    expect(report.ok, describeCheckSpec(report)).toBe(true);
  });

  it('fails a response body the schema forbids, naming the member and the rule', async () => {
    const problems = await problemsOf(
      'a refresh',
      'POST',
      `/api/links/${LINK_ID}/refresh/`,
      {},
      {
        status: 202,
        body: { request_id: 42, queued: true },
      },
    );
    // Response schemas are open (a tolerant reader): `queued` is not a problem, a wrong type is.
    expect(problems).toEqual(['response 202 body: /request_id must be string']);
  });

  it('fails a status the operation does not document', async () => {
    const problems = await problemsOf(
      'a refresh',
      'POST',
      `/api/links/${LINK_ID}/refresh/`,
      {},
      { status: 418 },
    );
    expect(problems[0]).toMatch(/^status 418 is not documented for refreshLink \(documented: 202, 400/);
  });

  it('fails a request the operation does not accept: method, path, query, body, credentials', async () => {
    expect(await problemsOf('a patch', 'PATCH', '/api/institutions/', {}, { status: 200 })).toEqual([
      'PATCH is not documented for /api/institutions/ (documented: GET)',
    ]);
    expect(await problemsOf('a typo', 'GET', '/api/linkz/', {}, { status: 200 })).toEqual([
      'no documented path matches /api/linkz/',
    ]);
    const query = { query: { page: ['1.5'], colour: ['red'] } };
    expect(await problemsOf('a page', 'GET', '/api/institutions/', query, { status: 200 })).toEqual([
      'query parameter `page`: / must be integer',
      'query parameter `colour` is not documented for listInstitutions',
    ]);
    const body = { body: { institution: 'ofbank_br_retail' }, headers: {} };
    expect(await problemsOf('a registration', 'POST', '/api/links/', body, { status: 201 })).toEqual([
      'the request carries no Basic credentials (AUTH-BASIC) yet expects 201',
      "request body: / must have required property 'username'",
    ]);
  });

  describe('a bad request sent on purpose is judged by the error it expects', () => {
    const registration = { body: { username: '76109277673', password: 'secret' } };
    const error = (field: string, code: string) => [
      { request_id: '3e7b2d1c9a8f4e6b8d0c1a2b3c4d5e6f', message: 'This field is required.', code, field },
    ];

    it('a registration without `institution` expecting the documented 400 naming it: valid', async () => {
      const directory = await pactWith(
        'a registration without institution',
        'POST',
        '/api/links/',
        registration,
        {
          status: 400,
          body: error('institution', 'required'),
        },
      );
      const report = await checkPacts([directory]);
      expect(report.verdicts[0]?.problems).toEqual([]);
      expect(report.ok).toBe(true);
    });

    it('the same request expecting a success stays an error', async () => {
      const problems = await problemsOf('a registration', 'POST', '/api/links/', registration, {
        status: 201,
      });
      expect(problems).toEqual(["request body: / must have required property 'institution'"]);
    });

    it('an expected 400 that describes another field, or is no error array, does not cover it', async () => {
      const other = await problemsOf('a registration', 'POST', '/api/links/', registration, {
        status: 400,
        body: error('username', 'required'),
      });
      expect(other).toEqual([
        "request body: / must have required property 'institution' (the expected 400 names no error for `institution` with code `required`)",
      ]);
      const invalidCode = await problemsOf('a registration', 'POST', '/api/links/', registration, {
        status: 400,
        body: error('institution', 'invalid'),
      });
      expect(invalidCode[0]).toMatch(/names no error for `institution` with code `required`/);
      const notAnArray = await problemsOf('a registration', 'POST', '/api/links/', registration, {
        status: 400,
        body: { detail: 'institution is required' },
      });
      expect(notAnArray).toContain("request body: / must have required property 'institution'");
    });

    it('a wrong value or a bad query parameter expecting a 400 naming it: valid', async () => {
      const wrongType = {
        body: { institution: 'ofbank_br_retail', username: 'u', password: 'p', access_mode: 7 },
      };
      const typed = await pactWith('a wrong access mode', 'POST', '/api/links/', wrongType, {
        status: 400,
        body: error('access_mode', 'invalid'),
      });
      expect((await checkPacts([typed])).ok).toBe(true);
      const paging = await pactWith(
        'page 1.5',
        'GET',
        '/api/institutions/',
        { query: { page: ['1.5'] } },
        {
          status: 400,
          body: error('page', 'invalid'),
        },
      );
      expect((await checkPacts([paging])).ok).toBe(true);
    });
  });

  it('accepts a response that leaves out required members unless --strict', async () => {
    const directory = await pactWith(
      'a refresh',
      'POST',
      `/api/links/${LINK_ID}/refresh/`,
      {},
      { status: 202, body: {} },
    );
    expect((await checkPacts([directory])).ok).toBe(true);
    const strict = await checkPacts([directory], { strict: true });
    expect(strict.verdicts[0]?.problems).toEqual([
      "response 202 body: / must have required property 'request_id'",
    ]);
  });

  it('reads V3 and V2 pact files too (raw bodies, query strings)', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'ofkit-check-spec-'));
    const v3 = {
      consumer: { name: 'old-client' },
      provider: { name: 'open-finance-api' },
      interactions: [
        {
          description: 'a V2 list with a query string',
          request: {
            method: 'GET',
            path: '/api/institutions/',
            query: 'page=1&page_size=x',
            headers: { Authorization: 'Basic aWQ6c2VjcmV0' },
          },
          response: { status: 200, headers: { 'Content-Type': 'application/json' }, body: { count: -1 } },
        },
      ],
      metadata: { pactSpecification: { version: '3.0.0' } },
    };
    await writeFile(join(directory, 'old-client.json'), JSON.stringify(v3));
    const report = await checkPacts([directory]);
    expect(report.verdicts[0]?.problems).toEqual([
      'query parameter `page_size`: / must be integer',
      'response 200 body: /count must be >= 0',
    ]);
  });

  it('reports in JUnit and sets the exit code from the CLI', async () => {
    const directory = await pactWith(
      'a refresh',
      'POST',
      `/api/links/${LINK_ID}/refresh/`,
      {},
      { status: 418 },
    );
    const report = await checkPacts([directory]);
    expect(checkSpecJUnit(report)).toContain(
      '<failure message="status 418 is not documented for refreshLink',
    );
    const junit = join(directory, 'check-spec.xml');
    expect(await pact(['check-spec', directory, '--report', `junit:${junit}`])).toBe(1);
    expect(await readFile(junit, 'utf8')).toContain('tests="1" failures="1"');
    expect(await pact(['check-spec', PACTS])).toBe(0);
    expect(await pact(['check-spec'])).toBe(2);
  });
});
