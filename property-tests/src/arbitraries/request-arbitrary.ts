/**
 * Valid requests of one operation, derived from its parameters and request body schema. Callers steer
 * the values the suite knows better than the schema (ids of existing records, a live link) with
 * overrides; everything else comes from the schemas.
 */
import fc from 'fast-check';
import { isObject, type JsonValue } from '../../../openapi/document/json.js';
import type { ApiOperation, ApiParameter } from '../../../openapi/document/operation-index.js';
import type { SchemaArbitraries } from './schema-arbitrary.js';

/** A request before it is sent: path parameters not yet substituted. */
export interface RequestInput {
  pathParams: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: JsonValue;
}

export interface RequestOverrides {
  /** Values of path parameters by name. Default: unknown uuids (ids are uuids; ERR-404 choice). */
  path?: Record<string, fc.Arbitrary<string>>;
  /** Values of query parameters by name (always sent when given). */
  query?: Record<string, fc.Arbitrary<string>>;
  /** Values of top-level body members by name (replace the generated ones when present). */
  body?: Record<string, fc.Arbitrary<JsonValue>>;
  /** Whole bodies mixed in with the generated ones (e.g. a registration that works). */
  bodies?: fc.Arbitrary<JsonValue>;
  /** Send optional query parameters too (default true). */
  optionalQuery?: boolean;
}

/** Query and header values travel as text. */
export function parameterText(value: JsonValue): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function parameterArbitrary(
  schemas: SchemaArbitraries,
  parameter: ApiParameter,
  override: fc.Arbitrary<string> | undefined,
): fc.Arbitrary<string> {
  return override ?? schemas.of(parameter.schema).map(parameterText);
}

function groupArbitrary(
  schemas: SchemaArbitraries,
  parameters: ApiParameter[],
  overrides: Record<string, fc.Arbitrary<string>>,
  optional: boolean,
): fc.Arbitrary<Record<string, string>> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    const override = overrides[parameter.name];
    if (!parameter.required && !optional && !override) continue;
    // `fields` / `omit` would shape most generated answers into near-empty records, leaving their
    // shapes unchecked: they are sent only when asked for (the lists' drawn shaping query).
    if (parameter.shapesResponse && !override) continue;
    model[parameter.name] = parameterArbitrary(schemas, parameter, override);
    if (parameter.required || override) required.push(parameter.name);
  }
  return fc.record(model, { requiredKeys: required }) as fc.Arbitrary<Record<string, string>>;
}

function bodyArbitrary(
  schemas: SchemaArbitraries,
  operation: ApiOperation,
  overrides: RequestOverrides,
): fc.Arbitrary<JsonValue | undefined> {
  if (!operation.body) return fc.constant(undefined);
  const members = overrides.body ?? {};
  const generated = fc.tuple(schemas.of(operation.body.schema), fc.record(members)).map(([body, values]) => {
    if (!isObject(body)) return body;
    const copy = { ...body };
    for (const [name, value] of Object.entries(values)) if (name in copy) copy[name] = value as JsonValue;
    return copy;
  });
  const withOptional = operation.body.required ? generated : fc.option(generated, { nil: undefined });
  return overrides.bodies ? fc.oneof(overrides.bodies, withOptional) : withOptional;
}

/** Valid requests of `operation` (every value from the document's schemas unless overridden). */
export function requestArbitrary(
  schemas: SchemaArbitraries,
  operation: ApiOperation,
  overrides: RequestOverrides = {},
): fc.Arbitrary<RequestInput> {
  const of = (location: string) => operation.parameters.filter((parameter) => parameter.in === location);
  const pathOverrides: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of of('path')) {
    pathOverrides[parameter.name] = overrides.path?.[parameter.name] ?? fc.uuid({ version: 4 });
  }
  return fc
    .record({
      pathParams: groupArbitrary(schemas, of('path'), pathOverrides, false),
      query: groupArbitrary(schemas, of('query'), overrides.query ?? {}, overrides.optionalQuery ?? true),
      headers: groupArbitrary(schemas, of('header'), {}, true),
      body: bodyArbitrary(schemas, operation, overrides),
    })
    .map(({ body, ...rest }) => (body === undefined ? rest : { ...rest, body }));
}

/** The path template with its parameters substituted (URL-encoded). */
export function fillPath(template: string, pathParams: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(pathParams[name] ?? ''));
}
