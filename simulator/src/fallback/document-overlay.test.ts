/**
 * A user's newer document over the bundled one: what the bundled document lacks is answered by Prism
 * from the user's examples (routed, authenticated and validated like any operation), everything else
 * stays stateful. Every answer is checked against the document it comes from.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ConfigError } from '../../../openapi/config/config-error.js';
import { readBundledDocument } from '../../../openapi/document/bundled-documents.js';
import type { JsonObject } from '../../../openapi/document/json.js';
import {
  checkAgainstDocument,
  contractCheckedExchange,
  documentChecker,
} from '../../test-support/contract-checked-simulator.js';
import { type StartedSimulator, startSimulator } from '../start-simulator.js';
import { loadDocumentOverlay, readUserDocument } from './document-overlay.js';

const WIDGETS = { count: 1, next: null, previous: null, results: [{ id: 'w-1', size: null }] };
const errorList = { $ref: '#/components/schemas/ErrorList' };
const bundledSchemas = (readBundledDocument('api').components as JsonObject).schemas as JsonObject;

/** A newer provider document: one new list, one new method on a known route, one operation ofkit has. */
const THEIRS: JsonObject = {
  openapi: '3.1.0',
  info: { title: 'newer', version: '9.9.9' },
  security: [{ basicAuth: [] }],
  paths: {
    '/api/widgets/': {
      get: {
        operationId: 'listWidgets',
        parameters: [{ name: 'kind', in: 'query', schema: { type: 'string', enum: ['round', 'square'] } }],
        responses: {
          '200': {
            description: 'widgets',
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/WidgetPage' }, example: WIDGETS },
            },
          },
          '400': { description: 'bad', content: { 'application/json': { schema: errorList } } },
        },
      },
    },
    '/api/institutions/{institution_code}/': {
      delete: {
        operationId: 'deleteInstitution',
        parameters: [{ name: 'institution_code', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '204': { description: 'gone' } },
      },
    },
    '/api/links/': { get: { operationId: 'listLinks', responses: { '200': { description: 'ours wins' } } } },
  },
  components: {
    securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } },
    schemas: {
      // The user's error array and its parts are the bundled ones (the API's error array).
      ...bundledSchemas,
      WidgetPage: {
        type: 'object',
        required: ['count', 'results'],
        properties: {
          count: { type: 'integer' },
          next: { type: ['string', 'null'] },
          previous: { type: ['string', 'null'] },
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['id'],
              properties: { id: { type: 'string' }, size: { type: ['integer', 'null'] } },
            },
          },
        },
      },
    },
  },
};

const folder = mkdtempSync(join(tmpdir(), 'ofkit-overlay-'));
const theirsFile = join(folder, 'newer.yaml');
writeFileSync(theirsFile, stringify(THEIRS));

describe('a user document over the bundled one', () => {
  let simulator: StartedSimulator;
  let authorization: string;
  const violations: string[] = [];
  const theirsChecker = documentChecker(THEIRS);
  const bundledCheck = contractCheckedExchange(violations);
  const isTheirs = (method: string, path: string) =>
    path.startsWith('/api/widgets/') || (method === 'DELETE' && path.startsWith('/api/institutions/'));

  beforeAll(async () => {
    simulator = await startSimulator({
      document: theirsFile,
      onExchange: (request, response) => {
        if (!isTheirs(request.method, request.path)) return bundledCheck?.(request, response);
        try {
          checkAgainstDocument(theirsChecker, request.method, request.path, response, request.query);
        } catch (error) {
          violations.push((error as Error).message);
        }
      },
    });
    const [key] = simulator.keys;
    authorization = `Basic ${Buffer.from(`${key?.secretId}:${key?.secretPassword}`).toString('base64')}`;
  });
  afterAll(async () => {
    await simulator?.close();
    expect(violations).toEqual([]);
  });

  const call = async (method: string, path: string, body?: unknown, auth = true) => {
    const answer = await fetch(`${simulator.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(auth && { authorization }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await answer.text();
    return { status: answer.status, body: text === '' ? undefined : JSON.parse(text) };
  };

  it('lists the operations the bundled document lacks, and only those', () => {
    expect(simulator.simulator.documentOperations).toEqual(['listWidgets', 'deleteInstitution']);
    expect(simulator.simulator.unservedOperations).toEqual([]);
  });

  it("answers a new operation from the user's example, authenticated and validated by its document", async () => {
    expect(await call('GET', '/api/widgets/?kind=round')).toEqual({ status: 200, body: WIDGETS });
    const wrongKind = await call('GET', '/api/widgets/?kind=oval');
    expect(wrongKind.status).toBe(400);
    expect(wrongKind.body[0]).toMatchObject({ code: 'invalid' });
    const anonymous = await call('GET', '/api/widgets/', undefined, false);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body[0]).toMatchObject({ code: 'authentication_failed' });
  });

  it('a new method on a known route (another path parameter name) is answered; the known one stays stateful', async () => {
    const listed = await call('GET', '/api/institutions/?page_size=1');
    const [first] = listed.body.results as { id: number; name: string }[];
    expect(await call('DELETE', `/api/institutions/${first?.id}/`)).toEqual({ status: 204, body: undefined });
    const institution = await call('GET', `/api/institutions/${first?.id}/`);
    expect(institution).toMatchObject({ status: 200, body: { id: first?.id, name: first?.name } });
  });

  it("an operation both documents have is the simulator's, with state", async () => {
    const created = await call('POST', '/api/links/', {
      institution: 'ofbank_br_retail',
      username: '76109277673',
      password: 'secret',
    });
    expect(created.status).toBe(201);
    const listed = await call('GET', '/api/links/');
    expect(listed.body.results.map((link: { id: string }) => link.id)).toContain(created.body.id);
  });
});

describe('reading a user document', () => {
  const write = (name: string, text: string) => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };

  it('refuses a missing file, a file that is not OpenAPI 3, and a $ref into another file, each on one line', () => {
    const cases: [string, RegExp][] = [
      [join(folder, 'missing.yaml'), /cannot read it \(ENOENT\)/],
      [write('swagger.yaml', 'swagger: "2.0"\npaths: {}\n'), /not an OpenAPI 3 document/],
      [write('broken.json', '{"openapi": '), /not JSON or YAML/],
      [
        write('split.yaml', stringify({ ...THEIRS, paths: { '/x/': { $ref: './x.yaml' } } })),
        /\$ref "\.\/x\.yaml" points into another file/,
      ],
    ];
    for (const [file, message] of cases) {
      expect(() => readUserDocument(file)).toThrow(ConfigError);
      expect(() => readUserDocument(file)).toThrow(message);
    }
  });

  it("a $ref that names nothing is refused at start with Prism's reason, not a trace", async () => {
    const dangling = write(
      'dangling.yaml',
      stringify({
        ...THEIRS,
        components: { schemas: { WidgetPage: { $ref: '#/components/schemas/Gone' } } },
      }),
    );
    const started = startSimulator({ document: dangling });
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(/--document .*dangling\.yaml: Prism cannot read it: .*Gone/);
  });

  it('an OpenAPI 3.0 schema JSON Schema 2020-12 cannot compile leaves that check to Prism instead of failing', () => {
    const old = write(
      'old.yaml',
      stringify({
        ...THEIRS,
        openapi: '3.0.3',
        components: {
          schemas: { Size: { type: 'integer', minimum: 1, exclusiveMinimum: true, nullable: true } },
        },
      }),
    );
    const overlay = loadDocumentOverlay(old, []);
    const validate = overlay.document.ajv.compile({ $ref: '#/components/schemas/Size' });
    expect(validate(5)).toBe(true);
  });
});
