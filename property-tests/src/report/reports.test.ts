import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { RuleResult } from '../runner/run-rule.js';
import type { SuiteResult } from '../runner/run-suite.js';
import { renderConsoleReport, renderTable } from './console-report.js';
import { JSON_REPORT_FORMAT, renderJson } from './json-report.js';
import { renderJunit } from './junit-report.js';
import type { ReplayContext } from './replay-command.js';

const failed: RuleResult = {
  id: 'PAGE-MAX',
  title: 'PAGE-MAX: No page ever holds more than 1000 records <&> "quoted"',
  area: 'cross-cutting',
  status: 'failed',
  runs: 7,
  reached: 7,
  durationMs: 1234,
  notes: ['a note'],
  failure: {
    message: 'GET /api/links/ page=1 page_size=5: 30 records, not 5\nsecond line',
    seed: 99,
    path: '6:0:1',
    counterexample: { source: { path: '/api/links/' }, pageSize: '5', page: '1' },
    shrinks: 3,
    exchanges: [
      {
        request: {
          method: 'GET',
          url: 'http://127.0.0.1:1/api/links/?page=1&page_size=5',
          headers: {},
          auth: { kind: 'basic', user: '$OFKIT_KEY', password: '$OFKIT_SECRET' },
        },
        response: { status: 200, contentType: 'application/json', body: '{}' },
        durationMs: 2,
      },
    ],
  },
};
const skipped: RuleResult = {
  id: 'ERR-500-408',
  title: 'ERR-500-408: 500 and 408 responses carry the error body',
  area: 'cross-cutting',
  status: 'skipped',
  runs: 0,
  reached: 0,
  durationMs: 1,
  reason: 'needs control-api: GET /_ofkit/clock/ answered 404',
  notes: [],
};
const passed: RuleResult = {
  ...skipped,
  id: 'SCHEMA:getLink',
  title: 'SCHEMA:getLink: ...',
  area: 'schema',
  operationId: 'getLink',
  status: 'passed',
  runs: 5,
  reached: 5,
  notes: [],
};
delete (passed as { reason?: string }).reason;

const suite: SuiteResult = {
  baseUrl: 'http://127.0.0.1:1',
  seed: 42,
  runs: null,
  startedAt: '2026-11-02T12:00:00.000Z',
  durationMs: 2000,
  environment: 'production',
  strict: false,
  scope: { operations: 147, of: 147, includeFrom: null, outOfScope: [] },
  tenancy: null,
  registrations: {},
  notImplemented: [],
  capabilities: {
    controlApi: false,
    secondKey: true,
    otherEnvironmentKey: false,
    environment: 'production',
    notes: {
      environment: 'production (GET /api/ says so)',
      'control-api': 'GET /_ofkit/clock/ answered 404',
      'second-key': 'x',
      'other-environment-key': 'y',
    },
  },
  results: [failed, skipped, passed],
  coverage: {
    operations: { covered: 1, total: 2, percent: 50 },
    statuses: { covered: 2, total: 6, percent: 33.3 },
    perOperation: [
      {
        operationId: 'getLink',
        method: 'GET',
        path: '/api/links/{id}/',
        exhibited: { '200': 4, '404': 1 },
        missing: ['401'],
        invalid: {},
        success: true,
        emptyListsOnly: false,
      },
      {
        operationId: 'createCustomer',
        method: 'POST',
        path: '/payments/br/customers/',
        exhibited: {},
        missing: ['201', '400', '401'],
        invalid: { '400': 2 },
        success: false,
        emptyListsOnly: false,
      },
    ],
  },
};
const context: ReplayContext = {
  baseUrl: suite.baseUrl,
  seed: 42,
  runs: null,
  keysFromCommandLine: 1,
  keyValues: { OFKIT_KEY: "'acme'", OFKIT_SECRET: '"$ACME_SECRET"' },
};

/** A SCHEMA row whose operation never answered a success status, and one for the environment. */
const notImplemented: RuleResult = {
  ...passed,
  id: 'SCHEMA:createCustomer',
  operationId: 'createCustomer',
  status: 'inconclusive',
  reason: 'no success answer: not implemented? (answered 404x5)',
};
const unavailable: RuleResult = {
  ...passed,
  id: 'SCHEMA:createPaymentIntent',
  operationId: 'createPaymentIntent',
  status: 'skipped (environment)',
  reached: 0,
  runs: 0,
  reason: 'payment initiation is not available in the sandbox (interface spec, Environments; PAY-SANDBOX)',
};

describe('reports', () => {
  it('JUnit XML is well-formed, with failures and skips counted per area', () => {
    const xml = renderJunit(suite, context);
    expect(XMLValidator.validate(xml)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    expect(parsed.testsuites).toMatchObject({ tests: '3', failures: '1', skipped: '1' });
    const [coverage, crossCutting, schema] = parsed.testsuites.testsuite;
    expect(coverage).toMatchObject({ name: 'coverage', tests: '2', skipped: '1' });
    expect(coverage.properties.property).toContainEqual({
      name: 'coverage.operations.percent',
      value: '50',
    });
    expect(coverage.testcase[1]).toMatchObject({ name: 'createCustomer', skipped: {} });
    expect(crossCutting).toMatchObject({ name: 'cross-cutting', tests: '2', failures: '1', skipped: '1' });
    expect(schema).toMatchObject({ name: 'schema', tests: '1', failures: '0' });
    expect(crossCutting.testcase[0].failure.message).toContain('30 records, not 5');
    expect(crossCutting.testcase[0].failure['#text']).toContain('--seed 42');
    expect(crossCutting.testcase[1].skipped.message).toContain('needs control-api');
  });

  it('JSON carries the summary, the replay commands and the curl reproduction', () => {
    const report = JSON.parse(renderJson(suite, context));
    expect(report.format).toBe(JSON_REPORT_FORMAT);
    expect(report.summary).toEqual({
      rules: 3,
      passed: 1,
      failed: 1,
      inconclusive: 0,
      skipped: 1,
      'skipped (environment)': 0,
    });
    expect(report.operations).toMatchObject({ passed: 1, 'not implemented': 0 });
    expect(report.coverage.operations).toEqual({ covered: 1, total: 2, percent: 50 });
    expect(report.coverage.perOperation[1]).toMatchObject({ operationId: 'createCustomer', success: false });
    expect(report.rules[0].reached).toBe(7);
    const failure = report.rules[0].failure;
    expect(failure.replay).toBe(
      `npx ofkit check 'http://127.0.0.1:1' --rules 'PAGE-MAX' --seed 42 --keys "$OFKIT_KEY:$OFKIT_SECRET"`,
    );
    expect(failure.replayShrunk).toContain(`--path '6:0:1'`);
    expect(failure.curl).toContain('-u "$OFKIT_KEY:$OFKIT_SECRET"');
    expect(failure.exports).toBe(`export OFKIT_KEY='acme' OFKIT_SECRET="$ACME_SECRET"`);
    expect(report.rules[1]).toMatchObject({
      status: 'skipped',
      reason: expect.stringContaining('control-api'),
    });
  });

  it('the console shows the table, then the failure with seed, replay, counterexample and curl', () => {
    const table = renderTable(suite);
    expect(table.split('\n')[0]).toMatch(/^rule\s+status\s+runs\s+reached\s+time\s+note$/);
    expect(table).toContain(
      '3 rules: 1 passed, 1 failed, 0 inconclusive, 1 skipped; coverage: operations 1/2 (50%), statuses 2/6 (33.3%) in 2.0 s (seed 42)',
    );
    const text = renderConsoleReport(suite, context);
    expect(text).toContain('FAILED PAGE-MAX');
    expect(text).toContain('seed 42 (rule seed 99), 7 runs, 3 shrinks');
    expect(text).toContain('"pageSize": "5"');
    expect(text).toContain("curl -sS -i -X GET 'http://127.0.0.1:1/api/links/?page=1&page_size=5'");
    expect(text).toContain('operations: 1 passed');
    // One export line before the failures, naming every variable their commands use.
    expect(text).toContain(`  export OFKIT_KEY='acme' OFKIT_SECRET="$ACME_SECRET"`);
    expect(text.split('export OFKIT_KEY')).toHaveLength(2);
  });

  it('operations that never answered a success status are listed as not implemented', () => {
    const text = renderConsoleReport(
      { ...suite, environment: 'sandbox', results: [passed, notImplemented, unavailable] },
      context,
    );
    expect(text).toContain(
      'operations: 1 passed, 1 not implemented (never answered a success status), 1 unavailable in the sandbox (skipped)',
    );
    expect(text).toContain(
      '  not implemented: createCustomer (POST /payments/br/customers/): no success answer: not implemented? (answered 404x5)',
    );
    expect(text).toContain('1 skipped (environment)');
  });

  it('without SCHEMA rows the console lists no operation', () => {
    const text = renderConsoleReport({ ...suite, results: [failed, skipped] }, context);
    expect(text).toContain('operations: no SCHEMA row selected (--rules)');
    expect(text).not.toContain('createCustomer');
  });

  const inconclusive: RuleResult = {
    ...passed,
    status: 'inconclusive',
    reached: 0,
    reason: 'no run reached the assertion: GET /api/owners/ answered 200 without records (5 runs)',
  };
  const parseXml = (xml: string) =>
    new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);

  it('inconclusive and skipped (environment) are JUnit skipped cases with their reason', () => {
    const xml = renderJunit({ ...suite, results: [inconclusive, unavailable] }, context);
    const parsed = parseXml(xml);
    expect(parsed.testsuites).toMatchObject({ tests: '2', failures: '0', skipped: '2' });
    const [, schema] = parsed.testsuites.testsuite;
    expect(schema.testcase[0].skipped.message).toMatch(/^inconclusive: .*without records/);
    expect(schema.testcase[1].skipped.message).toMatch(/^skipped \(environment\): payment initiation/);
    const json = JSON.parse(renderJson({ ...suite, results: [inconclusive, unavailable] }, context));
    expect(json.rules.map((rule: RuleResult) => rule.status)).toEqual([
      'inconclusive',
      'skipped (environment)',
    ]);
  });

  it('under --strict an inconclusive rule is a JUnit failure of type inconclusive', () => {
    const parsed = parseXml(renderJunit({ ...suite, strict: true, results: [inconclusive] }, context));
    expect(parsed.testsuites).toMatchObject({ tests: '1', failures: '1' });
    const [, schema] = parsed.testsuites.testsuite;
    expect(schema.testcase.failure).toMatchObject({ type: 'inconclusive' });
    expect(schema.testcase.failure.message).toContain('without records');
  });

  it('a JUnit failure carries the export line of the variables its commands use', () => {
    const parsed = parseXml(renderJunit(suite, context));
    const [, crossCutting] = parsed.testsuites.testsuite;
    expect(crossCutting.testcase[0].failure['#text']).toContain(
      `export OFKIT_KEY='acme' OFKIT_SECRET="$ACME_SECRET"`,
    );
  });
});
