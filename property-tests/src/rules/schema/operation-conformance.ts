/**
 * Schema conformance, one row per operation of the document (`SCHEMA:<operationId>`): generated valid
 * requests get a status the document declares for the operation, and a body (as JSON) that validates
 * against that status's schema (RESP-REQUIRED-NULLABLE among the rest); a status without a schema has
 * no body. The statuses seen are noted, so a report shows which operations only ever answered errors
 * (state the suite could not set up). A row passes only when its operation answered a success status
 * during the run (runner/schema-evidence.ts): otherwise it is inconclusive, "not implemented?".
 */

import type { ApiDocument } from '../../../../openapi/document/api-document.js';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import {
  projectedSchema,
  SHAPED_STATUSES,
  shapingOf,
} from '../../../../openapi/document/projected-schema.js';
import {
  type RequestInput,
  type RequestOverrides,
  requestArbitrary,
} from '../../arbitraries/request-arbitrary.js';
import { describeAnswer, undocumentedMembers } from '../expect-response.js';
import { knownRequest, knownValues } from '../known-values.js';
import { isResume, pausedRetrieval } from '../paused-retrieval.js';
import { defineRule, fail, type Rule, skip, skipForEnvironment, unmet } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';
import { DRAWN_QUERIES, isListOperation, listRequests } from './drawn-list-queries.js';
import { expectValidAnswer } from './unhonoured-parameters.js';

interface Fixture {
  overrides: RequestOverrides;
  /** Members answers carried that the document does not name (a note; a failure under --strict). */
  undocumented: Set<string>;
  statuses: Map<number, number>;
  /** The request with known values only (and the state-dependent body): sent first. */
  known: RequestInput | undefined;
  /** Lists: requests filtering on values of stored records, sent next. */
  drawn: RequestInput[];
  /** Lists: 200 answers, and those with records in them (their shapes validated). */
  pages: { answered: number; withRecords: number };
}

/** Statuses a server answers for a route it does not have. */
const NOT_ROUTED = new Set([404, 405, 501]);

/** Few runs per operation: there are ~150 of them. Lists trade random runs for drawn queries. */
const RUNS = 5;

/** The row of one operation. */
export function operationConformanceRule(operation: ApiOperation): Rule {
  const id = `SCHEMA:${operation.operationId}`;
  const list = isListOperation(operation);
  return defineRule<RequestInput, Fixture>({
    id,
    title: `${id}: ${operation.method} ${operation.path} answers a documented status with a body valid against its schema`,
    area: 'schema',
    // The row passes only once its operation answered a success status (schema-evidence.ts).
    operationId: operation.operationId,
    runs: list ? RUNS - DRAWN_QUERIES : RUNS,
    async prepare(suite, note) {
      const included = suite.operations.some((op) => op.operationId === operation.operationId);
      if (!included) return skip('excluded by the config (operations.exclude)');
      const unavailable = suite.unavailable.get(operation.operationId);
      if (unavailable !== undefined) return skipForEnvironment(unavailable);
      const overrides = await knownValues(suite, operation, note);
      // Coverage: the state the success status needs, built before the runs.
      const success = isResume(suite, operation) ? await pausedRetrieval(suite, operation, note) : undefined;
      const first = knownRequest(suite, operation, overrides, success);
      // Lists: their known request without generated filters, then filters drawn from records.
      const { known, drawn } =
        list && first ? await listRequests(suite, operation, first, note) : { known: first, drawn: [] };
      return {
        overrides,
        statuses: new Map(),
        known,
        drawn,
        pages: { answered: 0, withRecords: 0 },
        undocumented: new Set(),
      };
    },
    arbitrary: (suite, fixture) => requestArbitrary(suite.schemas, operation, fixture.overrides),
    // First the success status (known values), then lists filtered on stored values, then random runs.
    examples: (_suite, fixture) => [...(fixture.known ? [fixture.known] : []), ...fixture.drawn],
    async check(input, run, fixture) {
      const response = await sendRequest(run.http, operation, input);
      fixture.statuses.set(response.status, (fixture.statuses.get(response.status) ?? 0) + 1);
      if (list) countPage(fixture.pages, response.status, response.json);
      const declared = operation.responses.get(String(response.status));
      const what = `${describeOperation(operation)} answered ${response.status}`;
      if (!declared) {
        // "There is nothing here": evidence that the operation is not implemented, not of a wrong
        // status, until the operation has answered a success (schema-evidence.ts makes the row
        // inconclusive, "not implemented?", when it never does).
        const succeeded = [...fixture.statuses.keys()].some((status) => status >= 200 && status < 300);
        if (NOT_ROUTED.has(response.status) && !succeeded)
          unmet(`${what}: not implemented? (${describeAnswer(response)})`);
        const statuses = [...operation.responses.keys()].join(', ');
        fail(
          `${what}, which the document does not declare (declared: ${statuses}): ${describeAnswer(response)}`,
        );
      }
      if (declared.schema === undefined) {
        if (response.text.length > 0) fail(`${what} with a body, but the document declares none`);
        return;
      }
      const schema = answerSchema(run.document.raw, declared.schema, response.status, input);
      expectValidAnswer(run.document, response, schema, what, { input, operation });
      // Responses are open (a tolerant reader is the contract): members the document does not name are
      // noted, and fail the row only under --strict.
      const extra = undocumentedMembers(run.document, declared.schema, response.json);
      for (const member of extra) fixture.undocumented.add(member);
      if (run.strict && extra.length > 0)
        fail(`${what} with members the document does not name (--strict): ${extra.join(', ')}`);
    },
    summarize: (fixture) => {
      const seen = [...fixture.statuses].sort(([a], [b]) => a - b).map(([status, n]) => `${status}x${n}`);
      const { answered, withRecords } = fixture.pages;
      return [
        ...(seen.length > 0 ? [`statuses seen: ${seen.join(', ')}`] : []),
        ...(list ? [`${PAGES_WITH_RECORDS}: ${withRecords} of ${answered}`] : []),
        ...(fixture.undocumented.size > 0
          ? [`members the document does not name: ${[...fixture.undocumented].join(', ')}`]
          : []),
      ];
    },
  });
}

/**
 * The schema a success answer is checked against: the declared one, or, for a request with `fields` /
 * `omit`, the declared one with each record's members and `required` limited to those kept.
 */
function answerSchema(raw: JsonObject, declared: JsonValue, status: number, input: RequestInput): JsonValue {
  const shaping = SHAPED_STATUSES.has(status) ? shapingOf(new URLSearchParams(input.query)) : undefined;
  return shaping === undefined ? declared : projectedSchema(raw, declared, shaping);
}

/** The note of a list row saying how many of its pages held records (their shapes validated). */
export const PAGES_WITH_RECORDS = 'pages with records';

function countPage(pages: Fixture['pages'], status: number, body: unknown): void {
  if (status !== 200) return;
  pages.answered += 1;
  const results = isObject(body) ? body.results : undefined;
  if (Array.isArray(results) && results.length > 0) pages.withRecords += 1;
}

/** One schema conformance row per operation of the document. */
export function schemaConformanceRules(document: ApiDocument): Rule[] {
  return document.operations.map(operationConformanceRule);
}
