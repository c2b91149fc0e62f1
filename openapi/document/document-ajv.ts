/**
 * Ajv (JSON Schema 2020-12, strict, with formats) loaded with the schemas of a bundled OpenAPI
 * document, so any schema fragment of the document can be compiled and its `$ref`s resolve.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { isObject, type JsonObject, type JsonValue } from './json.js';

// ajv-formats ships CommonJS; under nodenext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

const DOCUMENT_ID = 'ofkit:openapi';
const LOCAL_SCHEMA_REF = '#/components/schemas/';
/** OpenAPI keywords a Schema Object may carry that JSON Schema does not define. */
const OPENAPI_SCHEMA_KEYWORDS = ['example', 'discriminator', 'xml', 'externalDocs'];

export interface DocumentAjv {
  /** Compiles a schema fragment of the document (cached by identity). */
  compile(schema: JsonValue): ValidateFunction;
}

/** Copies a fragment, pointing its local component `$ref`s at the registered document schema. */
function rehome(value: JsonValue, extensions: Set<string>): JsonValue {
  if (Array.isArray(value)) return value.map((item) => rehome(item, extensions));
  if (!isObject(value)) return value;
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('x-')) extensions.add(key);
    if (key === '$ref' && typeof child === 'string' && child.startsWith(LOCAL_SCHEMA_REF)) {
      copy[key] = `${DOCUMENT_ID}#/$defs/${child.slice(LOCAL_SCHEMA_REF.length)}`;
    } else {
      copy[key] = rehome(child, extensions);
    }
  }
  return copy;
}

export interface DocumentAjvOptions {
  /**
   * Check each schema against the JSON Schema 2020-12 meta-schema (default true). Compiling the
   * meta-schema was most of the simulator's first answer; the simulator turns it off because the
   * document's schemas are checked by the tests (every operation compiled with it on) and the linters.
   */
  checkSchemas?: boolean;
  /**
   * Refuse keywords JSON Schema 2020-12 does not define (default true). Off for a user's own document,
   * which may be written for OpenAPI 3.0 (`nullable`).
   */
  strict?: boolean;
}

/**
 * The formats every record repeats (its dates and times), whose full checks split the text and run
 * two expressions per value: a format is a pure test of its string, so each answer is kept, in a table
 * bounded by MAX_REMEMBERED (emptied when full). A page of 100 transactions repeats a few dozen values.
 */
const REMEMBERED_FORMATS = ['date-time', 'date', 'time'];
const MAX_REMEMBERED = 4_096;

type FormatTest = { validate: (value: string) => boolean; compare?: unknown };

function rememberFormatAnswers(ajv: Ajv2020): void {
  for (const name of REMEMBERED_FORMATS) {
    const format = ajv.formats[name] as FormatTest | undefined;
    if (format === undefined || typeof format.validate !== 'function') continue;
    const test = format.validate;
    const answers = new Map<string, boolean>();
    ajv.addFormat(name, {
      ...format,
      validate: (value: string) => {
        let answer = answers.get(value);
        if (answer === undefined) {
          answer = test(value);
          if (answers.size >= MAX_REMEMBERED) answers.clear();
          answers.set(value, answer);
        }
        return answer;
      },
    } as Parameters<Ajv2020['addFormat']>[1]);
  }
}

/** Builds the Ajv instance for one bundled document (only internal `$ref`s). */
export function createDocumentAjv(
  document: JsonObject,
  { checkSchemas = true, strict = true }: DocumentAjvOptions = {},
): DocumentAjv {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const extensions = new Set<string>();
  const defs = rehome(schemas, extensions);
  const ajv = new Ajv2020({
    strict,
    allErrors: true,
    allowUnionTypes: true,
    validateFormats: true,
    validateSchema: checkSchemas,
  });
  addFormats(ajv);
  rememberFormatAnswers(ajv);
  const register = (keyword: string) => {
    if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword });
  };
  for (const keyword of OPENAPI_SCHEMA_KEYWORDS) register(keyword);
  for (const keyword of extensions) register(keyword);
  ajv.addSchema({ $id: DOCUMENT_ID, $defs: defs as JsonObject });
  const cache = new WeakMap<object, ValidateFunction>();
  return {
    compile(schema) {
      if (isObject(schema) && cache.has(schema)) return cache.get(schema)!;
      const local = new Set<string>();
      const rehomed = rehome(schema, local);
      for (const keyword of local) register(keyword);
      const validate = ajv.compile(rehomed as JsonObject);
      if (isObject(schema)) cache.set(schema, validate);
      return validate;
    },
  };
}

/** One line per Ajv error: `<instance path> <message>`. */
export function describeErrors(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map(
    (error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
  );
}
