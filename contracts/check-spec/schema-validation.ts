/**
 * Validation of pact examples against the document's schemas (Ajv, JSON Schema 2020-12). Requests are
 * checked as they are: the verifier sends them as written. Responses are what the consumer expects, and
 * Pact lets a provider send more than that, so by default a response example may leave out required
 * members (`strict` says otherwise); every member it does hold must still be documented and valid.
 */
import type { ErrorObject } from 'ajv';
import { createDocumentAjv, type DocumentAjv, describeErrors } from '../../openapi/document/document-ajv.js';
import { isObject, type JsonObject, type JsonValue } from '../../openapi/document/json.js';

export interface SchemaValidation {
  document: JsonObject;
  /** Problems of a request value (`where` names it in the message); empty when valid. */
  request(schema: JsonValue, value: JsonValue, where: string): string[];
  /** The same problems with Ajv's errors, which say where and what (a missing member, a wrong value). */
  requestErrors(schema: JsonValue, value: JsonValue, where: string): { text: string; error: ErrorObject }[];
  /** Problems of a response example, leaving out missing members unless strict. */
  response(schema: JsonValue, value: JsonValue, where: string): string[];
}

/**
 * A schema that accepts partial examples: no `required`, and `oneOf` read as `anyOf` (two variants can
 * both accept a partial example). `not` and `if` keep their meaning, so they are left whole.
 */
export function relaxForExpectations(value: JsonValue): JsonValue {
  if (Array.isArray(value)) return value.map(relaxForExpectations);
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'required' && Array.isArray(child)) continue;
    if (key === 'not' || key === 'if') copy[key] = child;
    else if (key === 'oneOf' && Array.isArray(child)) copy.anyOf = relaxForExpectations(child);
    else copy[key] = relaxForExpectations(child);
  }
  return copy;
}

function relaxDocument(document: JsonObject): JsonObject {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  return { ...document, components: { ...components, schemas: relaxForExpectations(schemas) } };
}

function problemsOf(ajv: DocumentAjv, schema: JsonValue, value: JsonValue, where: string): string[] {
  const validate = ajv.compile(schema);
  if (validate(value)) return [];
  return describeErrors(validate).map((line) => `${where}: ${line}`);
}

/** Builds the validators of one bundled document (compiled schemas are cached by Ajv). */
export function createSchemaValidation(document: JsonObject, options: { strict: boolean }): SchemaValidation {
  const ajv = createDocumentAjv(document);
  const relaxedAjv = options.strict ? ajv : createDocumentAjv(relaxDocument(document));
  const relaxed = new WeakMap<object, JsonValue>();
  const relaxedSchema = (schema: JsonValue): JsonValue => {
    if (options.strict || !isObject(schema)) return schema;
    const cached = relaxed.get(schema) ?? relaxForExpectations(schema);
    relaxed.set(schema, cached);
    return cached;
  };
  return {
    document,
    request: (schema, value, where) => problemsOf(ajv, schema, value, where),
    requestErrors(schema, value, where) {
      const validate = ajv.compile(schema);
      if (validate(value)) return [];
      return (validate.errors ?? []).map((error) => ({
        text: `${where}: ${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
        error,
      }));
    },
    response: (schema, value, where) => problemsOf(relaxedAjv, relaxedSchema(schema), value, where),
  };
}
