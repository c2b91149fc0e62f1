/**
 * RESP-REQUIRED-NULLABLE: in every successful answer of the reads (GET operations), a member the
 * schema marks required is present, and null appears only where the schema allows it. Ids point at
 * records the suite found or created, so the answers carry real records.
 */

import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import type { RequestOverrides } from '../../arbitraries/request-arbitrary.js';
import { isJsonContentType } from '../expect-response.js';
import { knownValues } from '../known-values.js';
import { type OperationRequest, operationOf, operationRequests } from '../operation-requests.js';
import { defineRule, fail, skip, unmet } from '../rule.js';
import { describeOperation, sendRequest } from '../send-request.js';
import { requiredNullableProblems } from './required-nullable-problems.js';

interface Fixture {
  reads: ApiOperation[];
  overrides: Map<string, RequestOverrides>;
}

export const respRequiredNullable = defineRule<OperationRequest, Fixture>({
  id: 'RESP-REQUIRED-NULLABLE',
  area: 'cross-cutting',
  runs: 40,
  async prepare(suite, note) {
    const reads = suite.operations.filter((op) => op.method === 'GET' && op.responses.get('200')?.schema);
    if (reads.length === 0) return skip('no read operation left by the config');
    const overrides = new Map<string, RequestOverrides>();
    for (const read of reads) overrides.set(read.operationId, await knownValues(suite, read, note));
    return { reads, overrides };
  },
  arbitrary: (suite, { reads, overrides }) =>
    operationRequests(suite, reads, (operation) => overrides.get(operation.operationId) ?? {}),
  async check(call, run) {
    const operation = operationOf(run, call);
    const response = await sendRequest(run.http, operation, call.request);
    const schema = operation.responses.get(String(response.status))?.schema;
    if (response.status >= 300 || schema === undefined) {
      unmet(`${operation.operationId} answered ${response.status}: no successful answer to check`);
    }
    if (!isJsonContentType(response.contentType) || response.json === undefined) {
      fail(`${describeOperation(operation)} answered ${response.status} without a JSON body`);
    }
    const seen = { objects: 0 };
    const problems = requiredNullableProblems(schema, response.json, run.document.resolve, '', seen);
    if (problems.length > 0) {
      fail(`${describeOperation(operation)} answered ${response.status}: ${problems.slice(0, 5).join('; ')}`);
    }
    // An answer without one object its schema names members of (`[]` where a record is due) shows nothing.
    if (seen.objects === 0) {
      unmet(`${operation.operationId} answered ${response.status} with no object to check`);
    }
  },
});
