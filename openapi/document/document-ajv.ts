/**
 * Ajv (JSON Schema 2020-12, strict, with formats) loaded with the schemas of a bundled OpenAPI
 * document, so any schema fragment of the document can be compiled and its `$ref`s resolve.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { isObject, type JsonObject, type JsonValue } from './json.js';

/**
 * Ajv and ajv-formats (CommonJS, some 80 files) are required when the first document Ajv is built (a
 * simulator's first request to validate), not imported with this module through the ES module loader:
 * `ofkit simulate` started that way answers its first request some 50 ms sooner (npm run bench:startup).
 */
function ajvModules(): { Ajv: typeof Ajv2020; addFormats: (ajv: Ajv2020) => Ajv2020 } {
  const require = createRequire(import.meta.url);
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats ships CommonJS: its export is the function, under `default` too.
  const formats = require('ajv-formats') as { default: (ajv: Ajv2020) => Ajv2020 };
  return { Ajv, addFormats: formats.default };
}

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

/**
 * One Ajv per content of a document's schemas (and options), shared by every `createDocumentAjv` of an
 * equal document in this process: the simulator, its tests and the suite read the bundled document
 * afresh each time, and compiling its schemas again for every simulator was most of a test run's CPU.
 * A compiled validator is a pure function of its schema and the document's `$defs`, so an equal schema
 * of an equal document is compiled once. A few documents at most (the API's, the control API's, their
 * closed and relaxed variants, a user's).
 */
interface SharedAjv {
  ajv: Ajv2020;
  register(keyword: string): void;
  /** Compiled validators by the text of their rehomed schema. */
  compiled: Map<string, ValidateFunction>;
}

const SHARED_LIMIT = 16;
const shared = new Map<string, SharedAjv>();

function buildShared(schemas: JsonValue, strict: boolean, checkSchemas: boolean): SharedAjv {
  const extensions = new Set<string>();
  const defs = rehome(schemas, extensions);
  const { Ajv, addFormats } = ajvModules();
  const ajv = new Ajv({
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
  return { ajv, register, compiled: new Map() };
}

function sharedAjvOf(schemas: JsonValue, strict: boolean, checkSchemas: boolean): SharedAjv {
  const digest = createHash('sha256').update(JSON.stringify(schemas)).digest('base64');
  const key = `${strict}:${checkSchemas}:${digest}`;
  let found = shared.get(key);
  if (found === undefined) {
    found = buildShared(schemas, strict, checkSchemas);
    if (shared.size >= SHARED_LIMIT) shared.delete(shared.keys().next().value as string);
    shared.set(key, found);
  }
  return found;
}

/** The Ajv of one bundled document (only internal `$ref`s), shared with every equal document's. */
export function createDocumentAjv(
  document: JsonObject,
  { checkSchemas = true, strict = true }: DocumentAjvOptions = {},
): DocumentAjv {
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? components.schemas : {};
  const { ajv, register, compiled } = sharedAjvOf(schemas, strict, checkSchemas);
  const cache = new WeakMap<object, ValidateFunction>();
  return {
    compile(schema) {
      if (isObject(schema) && cache.has(schema)) return cache.get(schema)!;
      const local = new Set<string>();
      const rehomed = rehome(schema, local);
      const text = JSON.stringify(rehomed);
      let validate = compiled.get(text);
      if (validate === undefined) {
        for (const keyword of local) register(keyword);
        validate = ajv.compile(rehomed as JsonObject);
        compiled.set(text, validate);
      }
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
