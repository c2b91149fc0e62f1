/**
 * Is a pact's request a valid request of its operation? Parameters, credentials and body, in words, each
 * problem with the field it is about, so that an interaction that sends a bad request on purpose to pin
 * down the documented error can be told apart (expected-error.ts).
 */
import type { ErrorObject } from 'ajv';
import { jsonMediaOf, resolveRef } from '../../openapi/document/document-walk.js';
import { isObject, type JsonObject, type JsonValue } from '../../openapi/document/json.js';
import type { RoutedOperation } from './operation-router.js';
import type { PactInteraction, PactRequest } from './pact-file.js';
import type { SchemaValidation } from './schema-validation.js';

/** A JSON media type (`application/json`, `application/problem+json`, with parameters or not). */
export const isJson = (contentType: string | undefined) => /(^|\/|\+)json(;|$)/.test(contentType ?? '');

/** Query and header values are strings; the schema's type says how to read them. */
function coerce(value: string, schema: JsonValue | undefined, document: JsonObject): JsonValue {
  const resolved = resolveRef(document, schema);
  const types = isObject(resolved) ? [resolved.type].flat() : [];
  if ((types.includes('integer') || types.includes('number')) && /^-?\d+(\.\d+)?$/.test(value)) {
    return Number(value);
  }
  if (types.includes('boolean') && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function valuesOf(parameter: JsonObject, request: PactRequest, pathParams: Record<string, string>) {
  const name = String(parameter.name);
  if (parameter.in === 'query') return request.query[name];
  if (parameter.in === 'header') return request.headers[name.toLowerCase()];
  if (parameter.in === 'path') return pathParams[name] === undefined ? undefined : [pathParams[name]];
  return undefined;
}

/** A problem of the request: the words, the field it is about, and the error `code` it would get. */
export interface RequestProblem {
  text: string;
  /** The body member (top level, and its dotted path when nested) or the parameter it is about. */
  fields: string[];
  /** `required`: a required member or parameter is missing; `credentials`: AUTH-BASIC; else `invalid`. */
  code: 'required' | 'invalid' | 'credentials';
}

const problem = (
  text: string,
  fields: string[],
  code: RequestProblem['code'] = 'invalid',
): RequestProblem => ({
  text,
  fields,
  code,
});

function checkParameters(
  routed: RoutedOperation,
  request: PactRequest,
  schemas: SchemaValidation,
): RequestProblem[] {
  const problems: RequestProblem[] = [];
  const { entry, operationId } = routed;
  for (const parameter of entry.parameters) {
    const label = `${parameter.in} parameter \`${String(parameter.name)}\``;
    const values = valuesOf(parameter, request, routed.pathParams);
    const name = [String(parameter.name)];
    if (values === undefined || values.length === 0) {
      if (parameter.required === true)
        problems.push(problem(`${label} is required by ${operationId} but missing`, name, 'required'));
      continue;
    }
    if (values.length > 1 && parameter.in === 'query')
      problems.push(problem(`${label} is given ${values.length} times`, name));
    const schema = parameter.schema ?? {};
    for (const value of values) {
      const texts = schemas.request(schema, coerce(value, schema, schemas.document), label);
      problems.push(...texts.map((text) => problem(text, name)));
    }
  }
  const documented = new Set(entry.parameters.filter((p) => p.in === 'query').map((p) => String(p.name)));
  for (const name of Object.keys(request.query)) {
    if (!documented.has(name))
      problems.push(problem(`query parameter \`${name}\` is not documented for ${operationId}`, [name]));
  }
  return problems;
}

/** AUTH-BASIC: an operation under `basicAuth` needs Basic credentials, unless the pact expects the 401. */
function checkCredentials(
  routed: RoutedOperation,
  interaction: PactInteraction,
  document: JsonObject,
): RequestProblem[] {
  const security = routed.entry.operation.security ?? document.security ?? [];
  const needsCredentials = Array.isArray(security) && security.length > 0;
  const authorization = interaction.request.headers.authorization?.[0] ?? '';
  if (!needsCredentials || interaction.response.status === 401 || /^Basic \S+$/.test(authorization))
    return [];
  const text = `the request carries no Basic credentials (AUTH-BASIC) yet expects ${interaction.response.status}`;
  return [problem(text, [], 'credentials')];
}

/** The body members an Ajv error is about: the top-level one, and the dotted path of a nested one. */
function membersOf(error: ErrorObject): string[] {
  const path = error.instancePath.split('/').slice(1);
  if (error.keyword === 'required')
    path.push(String((error.params as { missingProperty?: unknown }).missingProperty));
  const top = path.filter((segment) => !/^\d+$/.test(segment));
  return top.length === 0 ? [] : [...new Set([top[0]!, top.join('.')])];
}

function checkBody(
  routed: RoutedOperation,
  request: PactRequest,
  schemas: SchemaValidation,
): RequestProblem[] {
  const { operationId } = routed;
  const requestBody = resolveRef(schemas.document, routed.entry.operation.requestBody);
  if (!isObject(requestBody)) {
    return request.body === undefined
      ? []
      : [problem(`${operationId} takes no request body, but the request has one`, [])];
  }
  if (request.body === undefined) {
    return requestBody.required === true
      ? [problem(`${operationId} requires a request body; the request has none`, [], 'required')]
      : [];
  }
  const media = jsonMediaOf(schemas.document, requestBody);
  if (!media) return [problem(`${operationId} documents no JSON request body`, [])];
  if (!isJson(request.contentType)) {
    const text = `the request body is ${request.contentType ?? 'untyped'}; ${operationId} takes application/json`;
    return [problem(text, [])];
  }
  return schemas
    .requestErrors(media.schema ?? {}, request.body, 'request body')
    .map(({ text, error }) =>
      problem(text, membersOf(error), error.keyword === 'required' ? 'required' : 'invalid'),
    );
}

/** Every reason the interaction's request is not a valid request of the operation. */
export function checkRequest(
  routed: RoutedOperation,
  interaction: PactInteraction,
  schemas: SchemaValidation,
): RequestProblem[] {
  return [
    ...checkCredentials(routed, interaction, schemas.document),
    ...checkParameters(routed, interaction.request, schemas),
    ...checkBody(routed, interaction.request, schemas),
  ];
}
