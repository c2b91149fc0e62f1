/**
 * A SCHEMA row's failure names its cause: where the body breaks its schema because the answer did not
 * honour a request parameter the document ties members to, the message says which and quotes the first
 * offending member and value. `fields=` keeps members and `omit=` drops them (openapi/document/
 * projected-schema.ts makes the schema say so); a filter (`status=valid`, `type__in=...`) names the member
 * it compares. Otherwise the message is the schema's errors alone.
 */
import type { ErrorObject } from 'ajv';
import type { ApiDocument } from '../../../../openapi/document/api-document.js';
import { describeErrors } from '../../../../openapi/document/document-ajv.js';
import type { JsonValue } from '../../../../openapi/document/json.js';
import type { ApiOperation } from '../../../../openapi/document/operation-index.js';
import type { RequestInput } from '../../arbitraries/request-arbitrary.js';
import type { HttpResponse } from '../../http/http-client.js';
import { describeAnswer, isJsonContentType } from '../expect-response.js';
import { fail } from '../rule.js';

const VALUE_CHARS = 80;
const LOOKUPS = /__(in|not_in|range|gt|gte|lt|lte|icontains|allin)$/;

/** The value at a JSON pointer of the body. */
function at(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, step) => (value as Record<string, unknown> | undefined)?.[step], body);
}

const quoted = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > VALUE_CHARS ? `${text.slice(0, VALUE_CHARS)}...` : text;
};

/** `fields=` / `omit=` the answer ignored: the first member it kept against them. */
function shapingCause(
  errors: readonly ErrorObject[],
  body: unknown,
  query: Record<string, string>,
): string | undefined {
  const error = errors.find((e) => e.propertyName !== undefined || e.keyword === 'propertyNames');
  const member =
    error?.propertyName ?? (error?.params as { propertyName?: string } | undefined)?.propertyName;
  if (!error || member === undefined) return undefined;
  const place = `${error.instancePath || '/'} holds \`${member}\` (${quoted((at(body, error.instancePath) as Record<string, unknown> | undefined)?.[member])})`;
  const omit = query.omit?.split(',') ?? [];
  if (omit.includes(member))
    return `the answer did not honour omit=${query.omit}: ${place}, which omit= drops`;
  if (query.fields !== undefined)
    return `the answer did not honour fields=${query.fields}: ${place}, which fields= does not ask for`;
  return undefined;
}

/** A filter of the request on the member an error is about: `param=value`, and what the record holds. */
function filterCause(
  errors: readonly ErrorObject[],
  body: unknown,
  query: Record<string, string>,
  operation: ApiOperation,
): string | undefined {
  for (const error of errors) {
    const steps = error.instancePath.split('/');
    const record = steps.findIndex((step, i) => /^\d+$/.test(step) && i > 0);
    const member = record > 0 ? steps[record + 1] : undefined;
    if (member === undefined) continue;
    const param = Object.keys(query).find((name) => {
      const declared = operation.parameters.find((p) => p.name === name && p.in === 'query');
      return (declared?.filter?.member ?? name.replace(LOOKUPS, '')) === member;
    });
    if (param === undefined) continue;
    const pointer = steps.slice(0, record + 2).join('/');
    return `the answer did not honour the filter ${param}=${query[param]}: ${pointer} is ${quoted(at(body, pointer))}`;
  }
  return undefined;
}

/** The body comes as JSON and validates against `schema`; a failure names an unhonoured parameter. */
export function expectValidAnswer(
  document: ApiDocument,
  response: HttpResponse,
  schema: JsonValue,
  what: string,
  request: { input: RequestInput; operation: ApiOperation },
): void {
  if (!isJsonContentType(response.contentType) || response.json === undefined)
    fail(`${what}: wanted a JSON body, got ${describeAnswer(response)}`);
  const validate = document.ajv.compile(schema);
  if (validate(response.json)) return;
  const errors = validate.errors ?? [];
  const query = request.input.query;
  const cause =
    shapingCause(errors, response.json, query) ??
    filterCause(errors, response.json, query, request.operation);
  const broken = `the body breaks its schema: ${describeErrors(validate).slice(0, 5).join('; ')}`;
  fail(`${what}: ${cause ? `${cause}; ${broken}` : broken}`);
}
