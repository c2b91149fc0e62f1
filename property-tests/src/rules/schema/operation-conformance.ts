/**
 * Schema conformance, one row per operation of the document (`SCHEMA:<operationId>`): generated valid
 * requests get a status the document declares for the operation, and a body (as JSON) that validates
 * against that status's schema (RESP-REQUIRED-NULLABLE among the rest); a status without a schema has
 * no body. The statuses seen are noted, so a report shows which operations only ever answered errors
 * (state the suite could not set up).
 */
import type { JsonValue } from '../../../../openapi/validation/document-ajv.js';
import type { RequestInput, RequestOverrides } from '../../arbitraries/request-arbitrary.js';
import { requestArbitrary } from '../../arbitraries/request-arbitrary.js';
import type { ApiDocument, ApiOperation } from '../../document/api-document.js';
import { describeAnswer, expectValid, undocumentedMembers } from '../expect-response.js';
import { knownRequest, knownValues } from '../known-values.js';
import { isResume, pausedRetrieval } from '../paused-retrieval.js';
import { defineRule, fail, type Rule, skip } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';

interface Fixture {
  overrides: RequestOverrides;
  /** Members answers carried that the document does not name (a note; a failure under --strict). */
  undocumented: Set<string>;
  statuses: Map<number, number>;
  /** A body that needs state set up first (a paused retrieval's resume), sent on the first run. */
  success: JsonValue | undefined;
}

/** Few runs per operation: there are ~150 of them. */
const RUNS = 5;

/** The row of one operation. */
export function operationConformanceRule(operation: ApiOperation): Rule {
  const id = `SCHEMA:${operation.operationId}`;
  return defineRule<RequestInput, Fixture>({
    id,
    title: `${id}: ${operation.method} ${operation.path} answers a documented status with a body valid against its schema`,
    area: 'schema',
    runs: RUNS,
    async prepare(suite, note) {
      const included = suite.operations.some((op) => op.operationId === operation.operationId);
      if (!included) return skip('excluded by the config (operations.exclude)');
      const overrides = await knownValues(suite, operation, note);
      // Coverage (issue 14): the state the success status needs, built before the runs.
      const success = isResume(suite, operation) ? await pausedRetrieval(suite, operation, note) : undefined;
      return { overrides, statuses: new Map(), success, undocumented: new Set() };
    },
    arbitrary: (suite, fixture) => requestArbitrary(suite.schemas, operation, fixture.overrides),
    // First, the request with known values only (and the state-dependent body): the success status.
    examples: (suite, fixture) => {
      const known = knownRequest(suite, operation, fixture.overrides, fixture.success);
      return known ? [known] : [];
    },
    async check(input, run, fixture) {
      const response = await sendRequest(run.http, operation, input);
      fixture.statuses.set(response.status, (fixture.statuses.get(response.status) ?? 0) + 1);
      const declared = operation.responses.get(String(response.status));
      const what = `${describeOperation(operation)} answered ${response.status}`;
      if (!declared) {
        const statuses = [...operation.responses.keys()].join(', ');
        fail(
          `${what}, which the document does not declare (declared: ${statuses}): ${describeAnswer(response)}`,
        );
      }
      if (declared.schema === undefined) {
        if (response.text.length > 0) fail(`${what} with a body, but the document declares none`);
        return;
      }
      expectValid(run.document, response, declared.schema, what);
      // Responses are open (a tolerant reader is the contract): members the document does not name are
      // noted, and fail the row only under --strict.
      const extra = undocumentedMembers(run.document, declared.schema, response.json);
      for (const member of extra) fixture.undocumented.add(member);
      if (run.strict && extra.length > 0)
        fail(`${what} with members the document does not name (--strict): ${extra.join(', ')}`);
    },
    summarize: (fixture) => {
      const seen = [...fixture.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}x${n}`);
      const notes = seen.length > 0 ? [`statuses seen: ${seen.join(', ')}`] : [];
      if (fixture.undocumented.size > 0)
        notes.push(`members the document does not name: ${[...fixture.undocumented].join(', ')}`);
      return notes;
    },
  });
}

/** One schema conformance row per operation of the document. */
export function schemaConformanceRules(document: ApiDocument): Rule[] {
  return document.operations.map(operationConformanceRule);
}
