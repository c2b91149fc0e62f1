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

/**
 * One request of each operation (drawn with a fixed seed, so examples stay the same run after run): the
 * exhaustive examples of the rules that hold for every operation, so that every documented status they
 * provoke is shown on every operation, not only on those the random runs happen to pick.
 */
export function requestPerOperation(
  suite: SuiteContext,
  operations: readonly ApiOperation[],
  overrides: (operation: ApiOperation) => RequestOverrides = () => ({}),
): OperationRequest[] {
  return operations.flatMap((operation) => {
    const arbitrary = requestArbitrary(suite.schemas, operation, overrides(operation));
    const [request] = fc.sample(arbitrary, { numRuns: 1, seed: 0 });
    return request ? [{ operationId: operation.operationId, request }] : [];
  });
}
