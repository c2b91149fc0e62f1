/** Checks rules share on one answer of the target; each throws a Violation that says what was seen. */
import type { JsonValue } from '../../../openapi/validation/document-ajv.js';
import { describeErrors, isObject } from '../../../openapi/validation/document-ajv.js';
import type { ApiDocument } from '../document/api-document.js';
import type { HttpResponse } from '../http/http-client.js';
import { fail } from './rule.js';

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
