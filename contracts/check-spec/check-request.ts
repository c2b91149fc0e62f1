/** Is a pact's request a valid request of its operation? Parameters, credentials and body, in words. */
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

function checkParameters(routed: RoutedOperation, request: PactRequest, schemas: SchemaValidation): string[] {
  const problems: string[] = [];
  const { entry, operationId } = routed;
  for (const parameter of entry.parameters) {
    const label = `${parameter.in} parameter \`${String(parameter.name)}\``;
    const values = valuesOf(parameter, request, routed.pathParams);
    if (values === undefined || values.length === 0) {
      if (parameter.required === true) problems.push(`${label} is required by ${operationId} but missing`);
      continue;
    }
    if (values.length > 1 && parameter.in === 'query')
      problems.push(`${label} is given ${values.length} times`);
    const schema = parameter.schema ?? {};
    for (const value of values) {
      problems.push(...schemas.request(schema, coerce(value, schema, schemas.document), label));
    }
  }
  const documented = new Set(entry.parameters.filter((p) => p.in === 'query').map((p) => String(p.name)));
  for (const name of Object.keys(request.query)) {
    if (!documented.has(name))
      problems.push(`query parameter \`${name}\` is not documented for ${operationId}`);
  }
  return problems;
}

/** AUTH-BASIC: an operation under `basicAuth` needs Basic credentials, unless the pact expects the 401. */
function checkCredentials(routed: RoutedOperation, interaction: PactInteraction, document: JsonObject) {
  const security = routed.entry.operation.security ?? document.security ?? [];
  const needsCredentials = Array.isArray(security) && security.length > 0;
  const authorization = interaction.request.headers.authorization?.[0] ?? '';
  if (!needsCredentials || interaction.response.status === 401 || /^Basic \S+$/.test(authorization))
    return [];
  return [`the request carries no Basic credentials (AUTH-BASIC) yet expects ${interaction.response.status}`];
}

function checkBody(routed: RoutedOperation, request: PactRequest, schemas: SchemaValidation): string[] {
  const { operationId } = routed;
  const requestBody = resolveRef(schemas.document, routed.entry.operation.requestBody);
  if (!isObject(requestBody)) {
    return request.body === undefined
      ? []
      : [`${operationId} takes no request body, but the request has one`];
  }
  if (request.body === undefined) {
    return requestBody.required === true
      ? [`${operationId} requires a request body; the request has none`]
      : [];
  }
  const media = jsonMediaOf(schemas.document, requestBody);
  if (!media) return [`${operationId} documents no JSON request body`];
  if (!isJson(request.contentType)) {
    return [`the request body is ${request.contentType ?? 'untyped'}; ${operationId} takes application/json`];
  }
  return schemas.request(media.schema ?? {}, request.body, 'request body');
}

/** Every reason the interaction's request is not a valid request of the operation. */
export function checkRequest(
  routed: RoutedOperation,
  interaction: PactInteraction,
  schemas: SchemaValidation,
): string[] {
  return [
    ...checkCredentials(routed, interaction, schemas.document),
    ...checkParameters(routed, interaction.request, schemas),
    ...checkBody(routed, interaction.request, schemas),
  ];
}
