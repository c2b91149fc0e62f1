/**
 * Stage 3, validate: path, query, headers and JSON body against the operation's schemas, with Ajv
 * (JSON Schema 2020-12), each schema compiled once. Every violation becomes one error with its `field`
 * (ERR-REQUIRED: a missing field is `required`).
 */

import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { DocumentAjv } from '../../../openapi/document/document-ajv.js';
import type { JsonObject, JsonValue } from '../../../openapi/document/json.js';
import type { ApiOperation, ApiParameter } from '../../../openapi/document/operation-index.js';
import { type ApiError, type ApiErrors, apiError } from '../core/api-error.js';
import type { ValidInput } from '../core/handler.js';
import type { SimRequest } from '../core/http-types.js';
import { err, ok, type Result } from '../core/result.js';

export type Validator = (
  request: SimRequest,
  pathParams: Record<string, string>,
) => Result<ValidInput, ApiErrors>;

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Query and header values arrive as strings; turn them into what their schema's type asks for. */
function coerce(value: string, schema: JsonValue): unknown {
  const type =
    typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? schema.type : undefined;
  if (type === 'integer' && INTEGER.test(value)) return Number(value);
  if (type === 'number' && NUMBER.test(value)) return Number(value);
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

function objectSchema(parameters: ApiParameter[]): JsonObject {
  const properties: JsonObject = {};
  for (const parameter of parameters) properties[parameter.name] = parameter.schema;
  // LIST-LINK-REQUIRED: the lists that need `link` declare it required; missing, it is 400 `required`.
  const required = parameters.filter((p) => p.required).map((p) => p.name);
  return { type: 'object', properties, required };
}

function describe(error: ErrorObject, location: string, prefix: string): ApiError {
  const base = error.instancePath.split('/').filter(Boolean).join('.');
  const joined = (name: string) => [prefix, base, name].filter(Boolean).join('.');
  // ERR-REQUIRED: a missing member is `required`, with `field` naming it.
  if (error.keyword === 'required') {
    const field = joined(String(error.params.missingProperty));
    return {
      code: 'required',
      rule: 'ERR-REQUIRED',
      field,
      message: `The ${location} field \`${field}\` is required.`,
    };
  }
  if (error.keyword === 'additionalProperties') {
    const field = joined(String(error.params.additionalProperty));
    return { code: 'unknown_field', field, message: `The ${location} field \`${field}\` is not accepted.` };
  }
  const field = joined('') || location;
  return {
    code: 'invalid',
    field,
    message: `The ${location} field \`${field}\` ${error.message ?? 'is not valid'}.`,
  };
}

function collect(
  validate: ValidateFunction,
  value: unknown,
  location: string,
  out: ApiError[],
  prefix = '',
): void {
  if (validate(value)) return;
  for (const error of validate.errors ?? []) {
    // oneOf/anyOf/if report a summary beside the branch errors; the branch errors say more.
    if (['oneOf', 'anyOf', 'if', 'not'].includes(error.keyword) && (validate.errors?.length ?? 0) > 1)
      continue;
    out.push(describe(error, location, prefix));
  }
}

/**
 * Nesting no body of the API comes near (the snapshot's records have the same bound): a value nested
 * 10,000 deep was stored, then overflowed the stack of every walk of it (the export, a list's answer).
 */
export const MAX_BODY_DEPTH = 64;

/** Whether JSON text nests `{`/`[` deeper than `limit`, read without parsing it (strings skipped). */
export function nestsDeeperThan(text: string, limit: number): boolean {
  // Nesting past the limit needs more opening brackets than the limit.
  if (text.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) depth -= 1;
  }
  return false;
}

function parseBody(request: SimRequest): Result<unknown, ApiErrors> {
  if (request.body.trim() === '' && request.parsedJson === undefined) return ok(undefined);
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json' && !type?.endsWith('+json')) {
    return err(
      apiError('unsupported_media_type', {
        message: `Send the body as application/json, not ${type || 'no type'}.`,
      }),
    );
  }
  // A snapshot import the adapter parsed as it streamed in.
  if (request.parsedJson !== undefined) {
    if (request.parsedJson.ok) return ok(request.parsedJson.value);
    const message = `The body is not valid JSON: ${request.parsedJson.error}`;
    return err(apiError('malformed_json', { message }));
  }
  if (nestsDeeperThan(request.body, MAX_BODY_DEPTH)) {
    const message = `The body nests arrays and objects deeper than ${MAX_BODY_DEPTH} levels.`;
    return err(apiError('invalid', { message }));
  }
  try {
    return ok(JSON.parse(request.body));
  } catch (cause) {
    return err(apiError('malformed_json', { message: notJsonMessage(cause as Error) }));
  }
}

/**
 * Why a body is not JSON, without quoting it: V8's message quotes the text it could not read, and a
 * form body's password would come back in the answer and in the request log (CLIENT-NO-SECRETS).
 */
function notJsonMessage(cause: Error): string {
  const position = /at position (\d+)/.exec(cause.message)?.[1];
  const where = position === undefined ? '' : ` (at position ${position})`;
  return `The body is not valid JSON${where}.`;
}

/**
 * Makes the validation stage of an operation (the assembly may wrap the factory). `ajv` builds the
 * document's Ajv on its first call: an operation with nothing to check never needs one.
 */
export type ValidatorFactory = (operation: ApiOperation, ajv: () => DocumentAjv) => Validator;

/** Compiles the operation's schemas once; returns the stage. */
export const createValidator: ValidatorFactory = (spec, ajv) => {
  const byPlace = (place: ApiParameter['in']) => spec.parameters.filter((p) => p.in === place);
  const [pathParams, queryParams] = [byPlace('path'), byPlace('query')];
  // Header names are case-insensitive; the adapter gives them lower-case.
  const headerParams = byPlace('header').map((p) => ({ ...p, name: p.name.toLowerCase() }));
  // Without parameters of a place, the object checked is always {} and always valid: nothing to compile
  // (loading and building Ajv is about 40 ms of a start whose first request declares no parameter).
  const compiled = (parameters: ApiParameter[]) =>
    parameters.length === 0 ? undefined : ajv().compile(objectSchema(parameters));
  const checkQuery = compiled(queryParams);
  const checkHeaders = compiled(headerParams);
  const checkBody = spec.body ? ajv().compile(spec.body.schema) : undefined;
  return (request, rawPath) => {
    const errors: ApiError[] = [];
    const query: Record<string, unknown> = {};
    for (const p of queryParams) {
      const value = request.query.get(p.name);
      if (value !== null) query[p.name] = coerce(value, p.schema);
    }
    const headers: Record<string, string> = {};
    for (const p of headerParams)
      if (request.headers[p.name] !== undefined) headers[p.name] = request.headers[p.name]!;
    if (checkQuery) collect(checkQuery, query, 'query', errors);
    if (checkHeaders) collect(checkHeaders, headers, 'header', errors);
    const body = parseBody(request);
    if (!body.ok) return body;
    if (checkBody && body.value === undefined && spec.body?.required) {
      errors.push({ code: 'required', rule: 'ERR-REQUIRED', message: 'A JSON request body is required.' });
    } else if (checkBody && body.value !== undefined) {
      collect(checkBody, body.value, 'body', errors);
    }
    const [first, ...rest] = errors;
    if (first) return err([first, ...rest]);
    const path: Record<string, string> = {};
    for (const p of pathParams) path[p.name] = rawPath[p.name] ?? '';
    return ok({ path, query, headers, body: body.value });
  };
};
