import { beforeAll, describe, expect, it } from 'vitest';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { createDocumentAjv } from '../../../openapi/document/document-ajv.js';
import { indexOperations } from '../../../openapi/document/operation-index.js';
import {
  type CheckedSimulator,
  contractCheckedSimulator,
} from '../../test-support/contract-checked-simulator.js';
import { createValidator } from './validate.js';

let sim: CheckedSimulator;
beforeAll(async () => {
  sim = await contractCheckedSimulator();
});

const newLink = async (as = 'tenant-a:secret-a', extra: Record<string, unknown> = {}) =>
  (
    await sim.call('POST', '/api/links/', {
      body: { institution: 'ofbank_br_retail', username: '76109277673', password: 'p', ...extra },
      as,
    })
  ).body;

describe('AUTH-BASIC', () => {
  it('refuses a request without credentials, with a malformed header and with a wrong secret (401)', async () => {
    for (const as of [null, 'tenant-a:wrong', 'nobody:secret-a']) {
      const refused = await sim.call('GET', '/api/links/', { as });
      expect(refused.status).toBe(401);
      expect(refused.body[0].code).toBe('authentication_failed');
    }
    const malformed = await sim.call('GET', '/api/links/', {
      as: null,
      headers: { authorization: 'Bearer abc' },
    });
    expect(malformed.status).toBe(401);
  });
});

describe('AUTH-ENV-KEYS', () => {
  it('refuses sandbox keys on a production simulator', async () => {
    const refused = await sim.call('GET', '/api/', { as: 'sandbox-key:sandbox-secret' });
    expect(refused.status).toBe(401);
    expect(refused.body[0].message).toContain('sandbox');
  });
});

describe('API-ROOT', () => {
  it('answers 200 with the version to valid credentials and 401 otherwise', async () => {
    const root = await sim.call('GET', '/api/');
    expect(root.status).toBe(200);
    expect(root.body).toEqual({ service: expect.any(String), version: '1.223.0', environment: 'production' });
    expect((await sim.call('GET', '/api/', { as: null })).status).toBe(401);
  });
});

describe('VERSION-NO-PATH', () => {
  it('paths carry no version segment: a versioned path is unknown', async () => {
    expect((await sim.call('GET', '/api/v1/links/')).status).toBe(404);
  });
});

describe('ERR-404', () => {
  it('an unknown path and an unknown id get 404 with the error body', async () => {
    expect((await sim.call('GET', '/api/nothing-here/')).status).toBe(404);
    const unknown = await sim.call('GET', '/api/links/5f0c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e/');
    expect(unknown.status).toBe(404);
    expect(unknown.body[0]).toMatchObject({ code: 'not_found' });
  });

  it('a path of the API without its trailing slash: 404 whose message names the path with it', async () => {
    const links = await sim.call('GET', '/api/links');
    expect(links.status).toBe(404);
    expect(links.body[0]).toMatchObject({
      code: 'not_found',
      message: 'No resource at /api/links; the resource is /api/links/ (paths end with a slash).',
    });
    const detail = await sim.call('DELETE', '/api/links/5f0c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e');
    expect(detail.body[0].message).toContain(
      'the resource is /api/links/5f0c1d2e-3f4a-4b5c-8d6e-7f8a9b0c1d2e/',
    );
    expect((await sim.call('GET', '/api/nothing-here')).body[0].message).toBe(
      'No resource at /api/nothing-here.',
    );
  });
});

describe('ERR-405', () => {
  it('PATCH or DELETE on a balance, and PUT on a collection, get 405', async () => {
    for (const [method, path] of [
      ['PATCH', '/api/br/balances/x/'],
      ['DELETE', '/api/br/balances/x/'],
      ['PUT', '/api/links/'],
    ] as const) {
      const refused = await sim.call(method, path, { body: {} });
      expect(refused.status).toBe(405);
      expect(refused.body[0].code).toBe('method_not_allowed');
    }
  });
});

describe('ERR-REQUIRED', () => {
  it('a missing required body field gets 400 with code required and the field', async () => {
    const missing = await sim.call('POST', '/api/links/', { body: { username: 'u' } });
    expect(missing.status).toBe(400);
    expect(missing.body).toContainEqual(expect.objectContaining({ code: 'required', field: 'institution' }));
  });
});

describe('ERR-BODY', () => {
  it('malformed JSON, a wrong content type, an unknown field, a wrong type and an oversize body are 4xx error arrays', async () => {
    const cases = [
      { rawBody: '{"institution":', status: 400, code: 'malformed_json' },
      {
        rawBody: 'institution=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        status: 415,
        code: 'unsupported_media_type',
      },
      { body: { institution: 42, username: 'u' }, status: 400, code: 'invalid' },
      {
        rawBody: JSON.stringify({ institution: 'x'.repeat(1_100_000), username: 'u' }),
        status: 413,
        code: 'payload_too_large',
      },
    ];
    for (const { status, code, ...options } of cases) {
      const answer = await sim.call('POST', '/api/links/', options);
      expect(answer.status, code).toBe(status);
      expect(answer.body[0]).toMatchObject({ code, request_id: expect.stringMatching(/^[0-9a-f]{32}$/) });
    }
    expect((await sim.call('GET', '/api/')).status).toBe(200);
  });

  it('an unknown member: ignored where the provider body is open (links), 400 unknown_field where ours is closed', async () => {
    const body = { institution: 'ofbank_br_retail', username: 'u', password: 'p', colour: 'red' };
    const link = await sim.call('POST', '/api/links/', { body });
    expect(link.status).toBe(201);
    expect(link.body).not.toHaveProperty('colour');
    const refresh = await sim.call('POST', `/api/links/${link.body.id}/refresh/`, {
      body: { colour: 'red' },
    });
    expect(refresh.status).toBe(400);
    expect(refresh.body[0]).toMatchObject({ code: 'unknown_field', field: 'colour' });
  });

  it('a fresh request_id per request', async () => {
    const first = await sim.call('GET', '/api/links/', { as: null });
    const second = await sim.call('GET', '/api/links/', { as: null });
    expect(first.body[0].request_id).not.toBe(second.body[0].request_id);
  });
});

describe('PAGE-DEFAULT, PAGE-MAX, PAGE-NAV', () => {
  it('pages are disjoint, ordered, cover count, and next links are followable as they are', async () => {
    const tenant = 'tenant-b:secret-b';
    for (let i = 0; i < 7; i++) await newLink(tenant, { external_id: `page-${i}` });
    const seen: string[] = [];
    let next: string | null = 'http://127.0.0.1:4010/api/links/?page_size=3&institution=ofbank_br_retail';
    while (next) {
      const url = new URL(next);
      const query = Object.fromEntries(url.searchParams);
      const page = await sim.call('GET', url.pathname, { query, as: tenant });
      expect(page.body.count).toBe(7);
      expect(page.body.results.length).toBeLessThanOrEqual(3);
      expect(
        new URL(page.body.next ?? 'http://x/?institution=ofbank_br_retail').searchParams.get('institution'),
      ).toBe('ofbank_br_retail');
      seen.push(...page.body.results.map((r: { external_id: string }) => r.external_id));
      next = page.body.next;
    }
    expect(seen).toEqual(['page-0', 'page-1', 'page-2', 'page-3', 'page-4', 'page-5', 'page-6']);
  });

  it('page_size defaults to 100, above 1000 is served as 1000, below 1 or not an integer is 400 naming the field; a page below 1 is empty', async () => {
    const all = await sim.call('GET', '/api/institutions/');
    expect(all.body.next).toBeNull();
    expect((await sim.call('GET', '/api/institutions/', { query: { page_size: 5000 } })).status).toBe(200);
    const zero = await sim.call('GET', '/api/institutions/', { query: { page: 0 } });
    expect(zero.body).toMatchObject({ count: all.body.count, previous: null, results: [] });
    for (const [name, value] of [
      ['page_size', 0],
      ['page', 'two'],
      ['page_size', 1.5],
    ] as const) {
      const refused = await sim.call('GET', '/api/institutions/', { query: { [name]: value } });
      expect(refused.status).toBe(400);
      expect(refused.body[0].field).toBe(name);
    }
    const beyond = await sim.call('GET', '/api/institutions/', { query: { page: 99 } });
    expect(beyond.body.results).toEqual([]);
  });
});

describe('FILTER-IN, FILTER-RANGE', () => {
  it('__in keeps the records whose field is one of the values; __range keeps the inclusive range', async () => {
    const byType = await sim.call('GET', '/api/institutions/', {
      query: { name__in: 'ofsat_mx_fiscal,ofsii_cl_fiscal' },
    });
    expect(byType.body.results.map((r: { name: string }) => r.name).sort()).toEqual([
      'ofsat_mx_fiscal',
      'ofsii_cl_fiscal',
    ]);
    await newLink();
    const today = await sim.call('GET', '/api/links/', {
      query: { created_at__range: '2026-11-02,2026-11-02' },
    });
    const before = await sim.call('GET', '/api/links/', {
      query: { created_at__range: '2026-01-01,2026-11-01' },
    });
    expect(today.body.count).toBeGreaterThan(0);
    expect(before.body.count).toBe(0);
    expect(
      (await sim.call('GET', '/api/links/', { query: { created_at__range: '2026-11-02' } })).status,
    ).toBe(400);
  });
});

describe('tenant isolation', () => {
  it('a link of one tenant is 404 for another, and their clocks are independent', async () => {
    const link = await newLink('tenant-a:secret-a');
    expect((await sim.call('GET', `/api/links/${link.id}/`, { as: 'tenant-b:secret-b' })).status).toBe(404);
    const before = sim.simulator.tenant('tenant-b').clock.now();
    await sim.simulator.tenant('tenant-a').clock.advance(3_600_000);
    expect(sim.simulator.tenant('tenant-b').clock.now()).toBe(before);
  });
});

describe('validators compiled on first use', () => {
  it('compiles, in strict Ajv, the validator of every operation of both documents', async () => {
    const { simulator } = await contractCheckedSimulator();
    const admin = readBundledDocument('admin');
    let compiled = 0;
    for (const document of [simulator.document, admin]) {
      const ajv = createDocumentAjv(document);
      for (const operation of indexOperations(document).values()) {
        expect(() => createValidator(operation, () => ajv), operation.operationId).not.toThrow();
        compiled += 1;
      }
    }
    expect(compiled).toBeGreaterThan(150);
  });

  it("builds the document's Ajv only for an operation with something to check", () => {
    const operations = indexOperations(readBundledDocument('api'));
    const operation = (id: string) => operations.find((o) => o.operationId === id)!;
    const request = (query = '') => ({
      method: 'GET',
      path: '/api/',
      query: new URLSearchParams(query),
      headers: {},
      origin: 'http://127.0.0.1',
      body: '',
    });
    const noAjv = () => {
      throw new Error('Ajv built');
    };
    // GET /api/ declares no parameter and no body: it validates without Ajv, and passes.
    const root = createValidator(operation('getApiRoot'), noAjv);
    expect(root(request('anything=1'), {})).toMatchObject({ ok: true });
    // A list declares query parameters: its validator needs Ajv, and still refuses a page size not a number.
    expect(() => createValidator(operation('listAccounts'), noAjv)).toThrow('Ajv built');
    const ajv = createDocumentAjv(readBundledDocument('api'));
    const accounts = createValidator(operation('listAccounts'), () => ajv);
    expect(accounts(request('page_size=many'), {})).toMatchObject({
      ok: false,
      error: [{ field: 'page_size' }],
    });
  });
});
