import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../document/json.js';
import { RULES } from '../generated/rules.js';
import { checkExamples } from './example-check.js';
import { checkOperations, parseOperationsTsv, SPECIFIED_OPERATIONS_PATH } from './operations-check.js';
import { checkProjectRules } from './project-rules-check.js';
import { checkRuleReferences } from './rule-references-check.js';

const root = resolve(import.meta.dirname, '../..');
const bundled = JSON.parse(readFileSync(join(root, 'openapi/generated/openapi.json'), 'utf8')) as JsonObject;
const admin = JSON.parse(readFileSync(join(root, 'openapi/generated/admin.json'), 'utf8')) as JsonObject;
const specified = parseOperationsTsv(readFileSync(SPECIFIED_OPERATIONS_PATH, 'utf8'));
const ruleIds = RULES.map((rule) => rule.id);
/** A fresh, mutable copy of the real document for each broken fixture (typed loosely on purpose). */
// biome-ignore lint/suspicious/noExplicitAny: fixtures reach deep into the document to break it
const copy = (): any => structuredClone(bundled);

describe("operations against the specification's list", () => {
  it('the document has exactly the 146 specified operations plus GET /api/', () => {
    expect(specified).toHaveLength(146);
    expect(checkOperations(bundled, specified)).toEqual({ documented: 147, missing: [], unexpected: [] });
  });

  it('catches a missing and an undocumented operation', () => {
    const broken = copy();
    delete broken.paths['/api/br/balances/'].post;
    broken.paths['/api/br/balances/{id}/'].delete = broken.paths['/api/br/balances/{id}/'].get;
    const report = checkOperations(broken, specified);
    expect(report.missing).toEqual(['POST /api/br/balances/']);
    expect(report.unexpected).toEqual(['DELETE /api/br/balances/{id}/']);
  });
});

describe('rule references against the catalogue (openapi/rules.yaml)', () => {
  it('every rule ID is referenced and every reference exists', () => {
    const report = checkRuleReferences([bundled, admin], ruleIds);
    expect(report.unreferenced).toEqual([]);
    expect(report.unknown).toEqual([]);
    expect(report.referenced).toBe(ruleIds.length);
  });

  it('catches an unreferenced rule and an unknown ID', () => {
    const broken = JSON.parse(
      JSON.stringify(bundled).replaceAll('"EXCHANGE-HISTORY"', '"EXCHANGE-HISTORYX"'),
    );
    const report = checkRuleReferences([broken, admin], ruleIds);
    expect(report.unreferenced).toEqual(['EXCHANGE-HISTORY']);
    expect(report.unknown.map((u) => u.id)).toContain('EXCHANGE-HISTORYX');
  });
});

describe('project rules', () => {
  it('the document keeps them', () => {
    expect(checkProjectRules(bundled)).toEqual([]);
  });

  it('catches a missing operationId, a missing 401, a foreign error schema, a list without paging and a missing example', () => {
    const broken = copy();
    delete broken.paths['/api/links/'].post.operationId;
    delete broken.paths['/api/links/{id}/'].get.responses['401'];
    broken.paths['/api/links/{id}/'].delete.responses['404'] = {
      description: 'problem+json',
      content: { 'application/json': { schema: { type: 'object' } } },
    };
    broken.paths['/api/accounts/'].get.parameters = broken.paths['/api/accounts/'].get.parameters.filter(
      (p: JsonObject) => !String(p.$ref ?? '').endsWith('/Page'),
    );
    delete broken.paths['/api/links/'].post.requestBody.content['application/json'].example;
    const rules = checkProjectRules(broken).map((v) => `${v.operation} ${v.rule}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        'POST /api/links/ operation-id',
        'GET /api/links/{id}/ error-responses',
        'DELETE /api/links/{id}/ error-schema',
        'GET /api/accounts/ pagination',
        'POST /api/links/ examples',
      ]),
    );
  });
});

describe('examples against their schemas (Ajv 2020-12, strict)', () => {
  it('every example of the document is valid', () => {
    const report = checkExamples(bundled);
    expect(report.failures).toEqual([]);
    expect(report.checked).toBeGreaterThanOrEqual(240);
  });

  it('catches an example that breaks its schema', () => {
    const broken = copy();
    const media = broken.paths['/api/links/{id}/'].get.responses['200'].content['application/json'];
    media.example = { ...media.example, access_mode: 'sometimes' };
    const report = checkExamples(broken);
    expect(report.failures.map((f) => f.location)).toEqual([
      '#/paths/~1api~1links~1{id}~1/get/responses/200/content/application~1json/example',
    ]);
  });
});

describe('Redocly lint', () => {
  it('fails on a document that breaks OpenAPI 3.1', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ofkit-lint-'));
    const file = join(dir, 'broken.yaml');
    writeFileSync(
      file,
      'openapi: 3.1.0\ninfo: { title: broken }\npaths:\n  /x/:\n    get:\n      responses: {}\n',
    );
    const lint = () =>
      execFileSync(process.execPath, [join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', file], {
        stdio: 'pipe',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off' },
      });
    expect(lint).toThrow();
  });
});
