/**
 * The project's own rules for the document (openapi/README.md): operationIds, the 401 and 500 on
 * every operation, the shared error schema on every error response, pagination on every list, an
 * example on every request and response body.
 */

import { jsonMediaOf, listOperations, resolveRef } from '../document/document-walk.js';
import { isObject, type JsonObject, type JsonValue } from '../document/json.js';

export interface ProjectRuleViolation {
  operation: string;
  rule: string;
  detail: string;
}

const ERROR_SCHEMAS = new Set([
  '#/components/schemas/ErrorList',
  '#/components/schemas/TokenRequiredErrorList',
]);

function errorSchemaRef(document: JsonObject, response: JsonValue): string | undefined {
  const schema = jsonMediaOf(document, response)?.schema;
  const ref = isObject(schema) ? schema.$ref : undefined;
  return typeof ref === 'string' ? ref : undefined;
}

const hasExample = (media: JsonObject) => 'example' in media || isObject(media.examples);

/** A list is a 200 whose schema is a paginated envelope (`results` beside `count`). */
function isPaginatedList(document: JsonObject, operation: JsonObject): boolean {
  const responses = isObject(operation.responses) ? operation.responses : {};
  const schema = resolveRef(document, jsonMediaOf(document, responses['200'])?.schema);
  return (
    isObject(schema) &&
    isObject(schema.properties) &&
    'results' in schema.properties &&
    'count' in schema.properties
  );
}

export function checkProjectRules(document: JsonObject): ProjectRuleViolation[] {
  const violations: ProjectRuleViolation[] = [];
  const seenIds = new Map<string, string>();
  for (const { method, path, operation, parameters } of listOperations(document)) {
    const name = `${method} ${path}`;
    const add = (rule: string, detail: string) => violations.push({ operation: name, rule, detail });
    const operationId = operation.operationId;
    if (typeof operationId !== 'string' || operationId.length === 0)
      add('operation-id', 'has no operationId');
    else if (seenIds.has(operationId))
      add('operation-id', `operationId ${operationId} is also used by ${seenIds.get(operationId)}`);
    else seenIds.set(operationId, name);
    const responses = isObject(operation.responses) ? operation.responses : {};
    for (const status of ['401', '500'])
      if (!(status in responses)) add('error-responses', `has no ${status} response`);
    for (const [status, response] of Object.entries(responses)) {
      if (!/^[45]/.test(status)) continue;
      const ref = errorSchemaRef(document, response);
      if (!ref || !ERROR_SCHEMAS.has(ref))
        add('error-schema', `${status} does not use the shared error schema (${ref ?? 'none'})`);
    }
    const body = jsonMediaOf(document, operation.requestBody);
    if (body && !hasExample(body)) add('examples', 'request body has no example');
    for (const [status, response] of Object.entries(responses)) {
      const media = jsonMediaOf(document, response);
      if (media && !hasExample(media)) add('examples', `${status} response has no example`);
    }
    if (method === 'GET' && isPaginatedList(document, operation)) {
      const names = new Set(parameters.map((parameter) => parameter.name));
      for (const required of ['page', 'page_size'])
        if (!names.has(required)) add('pagination', `list has no ${required} parameter`);
    }
  }
  return violations;
}
