import { describe, expect, it } from 'vitest';
import { BUNDLED_DOCUMENTS, readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import { createDocumentAjv, describeErrors } from '../../../openapi/document/document-ajv.js';
import type { JsonObject, JsonValue } from '../../../openapi/document/json.js';
import type { SimRequest, SimResponse } from '../core/http-types.js';
import { createPrismFallback } from './prism-fallback.js';

const document = readBundledDocument('api');
const ajv = createDocumentAjv(document);
const fallback = await createPrismFallback(BUNDLED_DOCUMENTS.api);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ANY_ID = '0b7e5c1a-2f4d-4e8a-9c3b-6d5e4f3a2b1c';

function request(method: string, path: string, body?: JsonValue, headers = {}): SimRequest {
  return {
    method,
    path,
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? '' : JSON.stringify(body),
    origin: 'http://127.0.0.1:4010',
  };
}

/** Follows a local `$ref` (`#/components/...`) of the bundled document. */
function deref(value: JsonValue | undefined): JsonObject {
  const ref = (value as JsonObject | undefined)?.$ref;
  if (typeof ref !== 'string') return value as JsonObject;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<JsonValue | undefined>((node, key) => (node as JsonObject | undefined)?.[key], document);
  return deref(target);
}

function operation(path: string, method: string): JsonObject {
  return deref((deref((document.paths as JsonObject)[path]) as JsonObject)[method]);
}

/** The lowest 2xx the operation documents (what the fallback answers). */
function successStatus(path: string, method: string): number {
  const statuses = Object.keys(deref(operation(path, method).responses)).map(Number);
  return Math.min(...statuses.filter((status) => status >= 200 && status < 300));
}

/** The response's JSON schema, or undefined when the response has no body. */
function responseSchema(path: string, method: string, status: number): JsonValue | undefined {
  const response = deref(deref(operation(path, method).responses)[String(status)]);
  const content = response.content as JsonObject | undefined;
  return (content?.['application/json'] as JsonObject | undefined)?.schema;
}

function expectValid(schema: JsonValue, body: unknown): void {
  const validate = ajv.compile(schema);
  const valid = validate(body);
  expect(describeErrors(validate)).toEqual([]);
  expect(valid).toBe(true);
}

/** Asks the fallback for `template` (ids filled in) and checks status and body against the document. */
async function expectDocumentedSuccess(template: string, method: string, body?: JsonValue): Promise<void> {
  const status = successStatus(template, method);
  const path = template.replace(/\{[^}]+\}/g, ANY_ID);
  const response = await fallback.answer(request(method.toUpperCase(), path, body), 'req-1');
  expect(response.status, `${method.toUpperCase()} ${template}`).toBe(status);
  const schema = responseSchema(template, method, status);
  if (schema === undefined) {
    expect(response.body).toBeUndefined();
    return;
  }
  expect(response.headers['content-type']).toBe('application/json');
  expectValid(schema, response.body);
}

function expectErrorArray(response: SimResponse, status: number, code: string): void {
  expect(response.status).toBe(status);
  expect(response.headers['content-type']).toBe('application/json');
  expectValid({ $ref: '#/components/schemas/ErrorList' }, response.body);
  expect(response.body).toEqual([{ request_id: 'req-9', message: expect.any(String), code }]);
}

describe('Prism fallback: documented success from the examples', () => {
  it('GET /payments/br/institutions/ answers 200 with a valid page', async () => {
    await expectDocumentedSuccess('/payments/br/institutions/', 'get');
  });

  it('GET /api/consents/{id}/ answers 200 with a valid consent for any id', async () => {
    await expectDocumentedSuccess('/api/consents/{id}/', 'get');
  });

  it('POST /payments/br/token/ answers 201 with a valid widget token', async () => {
    await expectDocumentedSuccess('/payments/br/token/', 'post', { customer: ANY_ID });
  });

  it('DELETE /api/bills/{id}/ answers 204 without a body', async () => {
    const response = await fallback.answer(request('DELETE', `/api/bills/${ANY_ID}/`), 'req-1');
    expect(response).toEqual({ status: 204, headers: {} });
  });

  it('answers every operation of the document with its lowest 2xx and a valid body', async () => {
    const paths = Object.keys(document.paths as JsonObject);
    let checked = 0;
    for (const path of paths) {
      for (const method of METHODS.filter((name) => name in deref((document.paths as JsonObject)[path]))) {
        await expectDocumentedSuccess(path, method);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('ignores the Accept header, so one request does not change the next answer', async () => {
    await fallback.answer(request('GET', '/payments/br/institutions/', undefined, { accept: 'text/html' }));
    const response = await fallback.answer(request('GET', '/payments/br/institutions/'));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
  });
});

describe('Prism fallback: answers are independent', () => {
  it('a caller changing one answer does not change the next', async () => {
    const first = await fallback.answer(request('GET', `/api/consents/${ANY_ID}/`));
    (first.body as Record<string, unknown>).status = 'changed';
    const second = await fallback.answer(request('GET', `/api/consents/${ANY_ID}/`));
    expect((second.body as Record<string, unknown>).status).not.toBe('changed');
  });
});

describe('ERR-BODY: what Prism cannot answer becomes the API error array', () => {
  it('an unknown path gets 404 not_found', async () => {
    const response = await fallback.answer(request('GET', '/api/nothing-here/'), 'req-9');
    expectErrorArray(response, 404, 'not_found');
  });

  it('ERR-405: a method the path does not declare gets 405 method_not_allowed', async () => {
    const response = await fallback.answer(request('PATCH', '/api/br/balances/'), 'req-9');
    expectErrorArray(response, 405, 'method_not_allowed');
  });
});
