/** Valid requests of any of several operations: the input of the rules that hold for every operation. */
import fc from 'fast-check';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import {
  type RequestInput,
  type RequestOverrides,
  requestArbitrary,
} from '../arbitraries/request-arbitrary.js';
import type { SuiteContext } from './rule.js';

/** An operation, named by its id (counterexamples stay readable), and a request of it. */
export interface OperationRequest {
  operationId: string;
  request: RequestInput;
}

/** Requests of `operations` (unknown ids in paths unless `overrides` says otherwise). */
export function operationRequests(
  suite: SuiteContext,
  operations: readonly ApiOperation[],
  overrides: (operation: ApiOperation) => RequestOverrides = () => ({}),
): fc.Arbitrary<OperationRequest> {
  return fc.constantFrom(...operations).chain((operation) =>
    requestArbitrary(suite.schemas, operation, overrides(operation)).map((request) => ({
      operationId: operation.operationId,
      request,
    })),
  );
}

/** The operation of an OperationRequest. */
export function operationOf(suite: SuiteContext, input: OperationRequest): ApiOperation {
  const operation = suite.document.operation(input.operationId);
  if (!operation) throw new Error(`Unknown operation ${input.operationId}`);
  return operation;
}
