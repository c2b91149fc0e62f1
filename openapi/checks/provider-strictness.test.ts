import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../document/json.js';
import { RULES } from '../generated/rules.js';
import {
  type CitationCatalogue,
  checkCitations,
  loadDifferenceReasons,
  loadSpecSections,
  parseDifferenceReasons,
} from './provider-differences.js';
import { loadProviderFacts } from './provider-facts.js';
import { checkProviderStrictness, strictnessFailures } from './provider-strictness-check.js';

const root = resolve(import.meta.dirname, '../..');
const bundled = JSON.parse(readFileSync(join(root, 'openapi/generated/openapi.json'), 'utf8')) as JsonObject;
const facts = loadProviderFacts();
const reasons = loadDifferenceReasons();
const catalogue: CitationCatalogue = {
  rules: RULES.map(({ id, choice }) => ({ id, choice })),
  sections: loadSpecSections(),
};
/** A fresh, mutable copy of the real document for each broken fixture (typed loosely on purpose). */
// biome-ignore lint/suspicious/noExplicitAny: fixtures reach deep into the document to break it
const copy = (): any => structuredClone(bundled);
const unexplainedLines = (document: JsonObject) =>
  checkProviderStrictness(document, facts, reasons, catalogue).unexplained.map((d) => d.line);

describe('no answer or request stricter than the provider without a cited reason', () => {
  it('holds on the 61 shared operations, every difference cited or pending, no stale entry', () => {
    const report = checkProviderStrictness(bundled, facts, reasons, catalogue);
    expect(report.operations).toBe(61);
    expect(strictnessFailures(report)).toEqual([]);
    // Not vacuous: the comparison finds the kept differences and the entries take them.
    expect(report.cited).toBeGreaterThan(500);
    expect(report.cited + report.pending).toBe(report.stricter);
  });

  it('catches a pattern, a requirement, a narrower type and a lost null, at any depth', () => {
    const broken = copy();
    const { schemas } = broken.components;
    schemas.Account.properties.name = { type: ['string', 'null'], pattern: '^x$' };
    schemas.Transaction.required.push('internal_identification');
    schemas.AccountBalance.properties.current = { type: ['integer', 'null'] };
    schemas.Transaction.properties.observations = { type: 'string' };
    expect(unexplainedLines(broken)).toEqual(
      expect.arrayContaining([
        'GET /api/transactions/ 200 results[].account.name: pattern ^x$ vs none',
        'GET /api/accounts/{id}/ 200 name: pattern ^x$ vs none',
        'GET /api/transactions/{id}/ 200 internal_identification: required true vs false',
        'POST /api/accounts/ 201 [].balance.current: type integer vs number',
        'GET /api/transactions/ 200 results[].observations: nullable false vs true',
      ]),
    );
  });

  it('catches an enum missing a provider value, a closed record and a missing status', () => {
    const broken = copy();
    const nullable = broken.components.schemas.TransactionCategory;
    // A nullable enum is `anyOf: [{enum}, {type: 'null'}]`: the values sit in the first branch.
    const category = nullable.enum
      ? nullable
      : nullable.anyOf.find((branch: { enum?: unknown }) => branch.enum);
    category.enum = category.enum.filter((value: unknown) => value !== 'Income & Payments');
    broken.components.schemas.Owner.additionalProperties = false;
    delete broken.paths['/api/accounts/{id}/'].get.responses['404'];
    expect(unexplainedLines(broken)).toEqual(
      expect.arrayContaining([
        'GET /api/transactions/{id}/ 200 category: enum lacks Income & Payments',
        'GET /api/owners/{id}/ 200 (body): closed vs none',
        "GET /api/accounts/{id}/ 404 only the provider's status",
      ]),
    );
  });

  it('catches a request body member and a query parameter the provider does not require or restrict', () => {
    const broken = copy();
    broken.components.schemas.TransactionsRetrieveRequest.required.push('account');
    const list = broken.paths['/api/transactions/'].get;
    list.parameters = [
      ...list.parameters,
      { name: 'reference', in: 'query', schema: { type: 'string', maxLength: 4 } },
    ];
    expect(unexplainedLines(broken)).toEqual(
      expect.arrayContaining([
        'POST /api/transactions/ request account: required true vs false',
        'GET /api/transactions/ query reference: maxLength 4 vs none',
      ]),
    );
  });
});

describe('provider-differences.yaml: every reason cites the spec', () => {
  it('every entry of the file cites a rule ID or a section of the spec', () => {
    expect(checkCitations(reasons, catalogue)).toEqual([]);
    expect(catalogue.sections).toEqual(
      expect.arrayContaining(['Error body', 'Rules on fields', 'Data areas']),
    );
  });

  it('catches an unknown rule or section, a missing citation, a bare choice and a pending entry that also cites', () => {
    const broken = parseDifferenceReasons(`
- { match: 'a', reason: Known rule and section with an item number., spec: [ERR-BODY, 'Rules on fields 3'] }
- { match: 'b', reason: Unknown rule., spec: NOT-A-RULE }
- { match: 'c', reason: Unknown section., spec: 'Errors and more' }
- { match: 'd', reason: No citation. }
- { match: 'e', reason: Only a choice rule., spec: PAGE-DEFAULT }
- { match: 'f', reason: A choice the provider agrees with., spec: PAGE-DEFAULT, provider: Its SDK follows next. }
- { match: 'g', reason: Pending and cited., spec: ERR-BODY, pending: The simulator changes. }
- { match: 'h', reason: Pending only., pending: The simulator changes. }
`);
    const problems = checkCitations(broken, catalogue);
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toMatch(/entry 2 .*NOT-A-RULE, which is neither a rule ID nor a section/);
    expect(problems.join('\n')).toMatch(/entry 3 .*Errors and more, which is neither/);
    expect(problems.join('\n')).toMatch(/entry 4 .*no spec citation/);
    expect(problems.join('\n')).toMatch(/entry 5 .*cites only choice rules/);
    expect(problems.join('\n')).toMatch(/entry 7 .*pending and cited at once/);
  });

  it('fails on an entry that explains no difference', () => {
    const [gone] = parseDifferenceReasons("- { match: '^GET /api/nothing/', reason: Gone., spec: ERR-404 }");
    const stale = [...reasons, { ...gone!, index: reasons.length }];
    const failures = strictnessFailures(checkProviderStrictness(bundled, facts, stale, catalogue));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(
      new RegExp(`^provider-differences entry ${stale.length} explains no difference`),
    );
  });

  it('an uncited difference is caught once its entry is gone', () => {
    const withoutIds = reasons.filter((r) => !r.match.source.includes('id: required'));
    const report = checkProviderStrictness(bundled, facts, withoutIds, catalogue);
    expect(report.unexplained.map((d) => d.line)).toContain(
      'GET /api/owners/{id}/ 200 id: required true vs false',
    );
  });
});
