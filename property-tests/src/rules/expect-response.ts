/** Checks rules share on one answer of the target; each throws a Violation that says what was seen. */
import type { ValidateFunction } from 'ajv';
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import { createDocumentAjv, describeErrors } from '../../../openapi/document/document-ajv.js';
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import type { HttpResponse } from '../http/http-client.js';
import { fail, unmet } from './rule.js';

const BODY_EXCERPT = 300;

/** `<status> <body excerpt>`, for messages. */
export function describeAnswer(response: HttpResponse): string {
  const body =
    response.text.length > BODY_EXCERPT ? `${response.text.slice(0, BODY_EXCERPT)}...` : response.text;
  return `${response.status} ${response.contentType || '(no content-type)'} ${body}`.trim();
}

export function expectStatus(response: HttpResponse, expected: readonly number[], what: string): void {
  if (!expected.includes(response.status)) {
    fail(`${what}: wanted ${expected.join(' or ')}, got ${describeAnswer(response)}`);
  }
}

/** A JSON content type (`application/json`, optionally with parameters, or a `+json` type). */
export const isJsonContentType = (contentType: string) =>
  /^application\/([a-z0-9.+-]*\+)?json\b/i.test(contentType.trim());

/** The body validates against `schema`, and comes as JSON when there is one. */
export function expectValid(
  document: ApiDocument,
  response: HttpResponse,
  schema: JsonValue,
  what: string,
): void {
  if (!isJsonContentType(response.contentType) || response.json === undefined) {
    fail(`${what}: wanted a JSON body, got ${describeAnswer(response)}`);
  }
  const validate = document.ajv.compile(schema);
  if (!validate(response.json)) {
    fail(`${what}: the body breaks its schema: ${describeErrors(validate).slice(0, 5).join('; ')}`);
  }
}

/** The members `body` carries that the (closed) document does not name, as `path.member`. */
export function undocumentedMembers(document: ApiDocument, schema: JsonValue, body: unknown): string[] {
  const validate = document.closedAjv().compile(schema);
  if (validate(body)) return [];
  const members = new Set<string>();
  for (const error of validate.errors ?? []) {
    if (error.keyword !== 'additionalProperties') continue;
    const member = (error.params as { additionalProperty?: string }).additionalProperty;
    if (member === undefined) continue;
    const path = error.instancePath.replace(/\/\d+/g, '[]').slice(1).replaceAll('/', '.');
    members.add(path ? `${path}.${member}` : member);
  }
  return [...members];
}

/** A schema with every `additionalProperties: false` dropped: undocumented members are let through. */
function open(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(open);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'additionalProperties' && child === false) continue;
    copy[key] = open(child);
  }
  return copy;
}

const lenient = new WeakMap<ApiDocument, { compile(schema: JsonValue): ValidateFunction }>();

/** An Ajv over the document with every schema opened (cached per document and schema). */
function lenientAjv(document: ApiDocument) {
  let found = lenient.get(document);
  if (!found) {
    const ajv = createDocumentAjv(open(document.raw) as JsonObject);
    const cache = new WeakMap<object, ValidateFunction>();
    found = {
      compile(schema) {
        const key = isObject(schema) ? schema : undefined;
        const known = key && cache.get(key);
        if (known) return known;
        const validate = ajv.compile(open(schema));
        if (key) cache.set(key, validate);
        return validate;
      },
    };
    lenient.set(document, found);
  }
  return found;
}

/**
 * What a behavioural rule asks of a body it reads: JSON, and usable as its schema says. A
 * shape problem is the schema rows' (SCHEMA:<operationId>) to report, once, so it never fails an
 * unrelated rule: undocumented members are let through, and a body that breaks its schema otherwise
 * ends the run as `unmet` (the rule cannot judge it). `shapeFails` for rules whose assertion is the
 * shape (PAY-VERSION-HEADER: which version's format is served).
 */
export function expectUsable(
  document: ApiDocument,
  response: HttpResponse,
  schema: JsonValue,
  what: string,
  options: { shapeFails?: boolean } = {},
): void {
  if (!isJsonContentType(response.contentType) || response.json === undefined) {
    fail(`${what}: wanted a JSON body, got ${describeAnswer(response)}`);
  }
  if (matchesOpenly(document, schema, response.json)) return;
  const validate = lenientAjv(document).compile(schema);
  const problems = describeErrors(validate).slice(0, 5).join('; ');
  const message = `${what}: the body breaks its schema (the SCHEMA rows report shapes): ${problems}`;
  if (options.shapeFails) fail(message);
  unmet(message);
}

/** `value` fits `schema` once undocumented members are allowed. */
export function matchesOpenly(document: ApiDocument, schema: JsonValue, value: unknown): boolean {
  return lenientAjv(document).compile(schema)(value) === true;
}

/** ERR-BODY: a JSON array of `{request_id, message, code, field?}`, `application/json`. */
export function expectErrorArray(document: ApiDocument, response: HttpResponse, what: string): void {
  if (!/^application\/json\b/i.test(response.contentType.trim())) {
    fail(`${what}: an error must be application/json (the error array), got ${describeAnswer(response)}`);
  }
  expectValid(document, response, document.schema('ErrorList'), `${what} (ERR-BODY error array)`);
}

/** The error items of an error-array answer. */
export function errorItems(response: HttpResponse): { code?: unknown; field?: unknown; message?: unknown }[] {
  return Array.isArray(response.json) ? response.json.filter(isObject) : [];
}

/**
 * An error item naming one of `fields` (with `code` when given). Rules stay independent: when the body
 * is not an error array at all, that is ERR-BODY's failure, not this rule's, so nothing is checked here.
 */
export function expectFieldError(
  response: HttpResponse,
  fields: readonly string[],
  code: string | undefined,
  what: string,
) {
  if (!Array.isArray(response.json)) return;
  const named = errorItems(response).some(
    (item) => fields.includes(item.field as string) && (code === undefined || item.code === code),
  );
  const wanted = `${code ? `code "${code}" and ` : ''}field ${fields.map((f) => `"${f}"`).join(' or ')}`;
  if (!named) fail(`${what}: no error with ${wanted}: ${describeAnswer(response)}`);
}
