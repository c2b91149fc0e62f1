/**
 * A consumer test may send a bad request on purpose to pin down the documented error (Specmatic accepts
 * such examples when the expected status is an error). So a request problem is no problem when the
 * interaction expects a documented 4xx whose body is that status's error array, and the array describes
 * the problem: an item whose `field` names the member or parameter, with code `required` when the member
 * is missing (ERR-REQUIRED). Expecting a success, or an error that names something else, the problem
 * stays a problem, saying why the expected error does not cover it.
 */
import { jsonMediaOf } from '../../openapi/document/document-walk.js';
import { isObject } from '../../openapi/document/json.js';
import type { RequestProblem } from './check-request.js';
import type { RoutedOperation } from './operation-router.js';
import type { PactResponse } from './pact-file.js';
import type { SchemaValidation } from './schema-validation.js';

interface ErrorItem {
  field?: unknown;
  code?: unknown;
}

/** The expected error items, when the response is a documented 4xx (not AUTH-BASIC's 401) with a valid body. */
function expectedErrors(routed: RoutedOperation, response: PactResponse, schemas: SchemaValidation) {
  const { status } = response;
  if (status < 400 || status >= 500 || status === 401) return undefined;
  const responses = isObject(routed.entry.operation.responses) ? routed.entry.operation.responses : {};
  const documented = responses[String(status)];
  const media = documented === undefined ? undefined : jsonMediaOf(schemas.document, documented);
  if (!media || !Array.isArray(response.body) || response.body.length === 0) return undefined;
  // The whole error array, required members included: it must be one the status can answer.
  if (schemas.request(media.schema ?? {}, response.body, 'response').length > 0) return undefined;
  return response.body.filter(isObject) as ErrorItem[];
}

function describes(item: ErrorItem, problem: RequestProblem): boolean {
  if (typeof item.field !== 'string' || !problem.fields.includes(item.field)) return false;
  return problem.code !== 'required' || item.code === 'required';
}

/** The problems the interaction's expected error does not describe, each saying so. */
export function undescribedProblems(
  problems: readonly RequestProblem[],
  routed: RoutedOperation,
  response: PactResponse,
  schemas: SchemaValidation,
): string[] {
  const items = expectedErrors(routed, response, schemas);
  if (items === undefined) return problems.map((problem) => problem.text);
  return problems
    .filter((problem) => problem.code === 'credentials' || !items.some((item) => describes(item, problem)))
    .map((problem) => {
      const wanted = problem.code === 'required' ? ' with code `required`' : '';
      const names = problem.fields.length > 0 ? `\`${problem.fields[0]}\`${wanted}` : 'it';
      return `${problem.text} (the expected ${response.status} names no error for ${names})`;
    });
}
