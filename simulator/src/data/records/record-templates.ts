/**
 * Record templates of the data resources, read once at start-up from the bundled document: for every
 * `/api/.../` collection whose list answers a paginated envelope, the record schema and the list
 * example's records (realistic templates the generator varies).
 */
import { jsonMediaOf, listOperations, resolveRef } from '../../../../openapi/document/document-walk.js';
import { isObject, type JsonObject, type JsonValue } from '../../../../openapi/document/json.js';
import { isDataCollection } from '../../core/collections.js';
import { MAIN_DATE_FIELDS, RESOURCE_HINTS } from './resource-hints.js';

/** What the generator needs to vary one data resource's records. */
export interface RecordTemplate {
  /** Collection path, e.g. `/api/accounts/`. */
  readonly path: string;
  /** Component name of the record schema, e.g. `Account`. */
  readonly schemaName: string;
  /** The record schema: `components.schemas[schemaName]` of the document (internal `$ref`s). */
  readonly schema: JsonObject;
  /** The document's `components.schemas`, to resolve the record schema's `$ref`s. */
  readonly definitions: JsonObject;
  /** The list example's records (`results`) in document order, then the resource hint's extra examples. */
  readonly examples: readonly JsonObject[];
  /** Top-level field that dates the record (kept inside a requested date range), or null. */
  readonly mainDate: string | null;
  /**
   * Top-level fields that name another record (`account`, `investment`...) and are list filters: a
   * uuid, or the whole record nested (a transaction's `account`), compared by its `id`. The field is
   * named after the collection of that record (`employment_record`, `/api/employment-records/`): a
   * uuid of no collection (an invoice's folio fiscal) is the record's own value, not a reference.
   */
  readonly references: readonly string[];
}

const SCHEMA_REF = '#/components/schemas/';
const DATE_FORMATS = new Set(['date', 'date-time']);
const OWN_FIELDS = new Set(['id', 'link', 'created_at', 'collected_at']);

/** Builds the template of every data resource, keyed by collection path. Throws on a broken document. */
export function buildRecordTemplates(document: JsonObject): Map<string, RecordTemplate> {
  const components = isObject(document.components) ? document.components : {};
  const definitions = isObject(components.schemas) ? components.schemas : {};
  const templates = new Map<string, RecordTemplate>();
  const collections = Object.keys(isObject(document.paths) ? document.paths : {});
  const namesCollection = (field: string) =>
    collections.some((path) => path.endsWith(`/${field.replaceAll('_', '-')}s/`));
  for (const { method, path, operation, parameters } of listOperations(document)) {
    if (method !== 'GET' || !isDataCollection(path)) continue;
    const media = jsonMediaOf(document, jsonAt(operation, ['responses', '200']));
    if (!media) continue;
    const schemaName = recordSchemaName(document, media.schema);
    if (schemaName === null) continue;
    const schema = definitions[schemaName];
    const results = jsonAt(media, ['example', 'results']);
    if (!isObject(schema)) throw new Error(`${path}: record schema ${schemaName} is missing`);
    if (!Array.isArray(results) || results.length === 0 || !results.every(isObject)) {
      throw new Error(`${path}: the 200 example has no results to use as record templates`);
    }
    const filters = parameters.map((p) => p.name).filter((name): name is string => typeof name === 'string');
    const fields = topLevelProperties(schema, definitions);
    templates.set(path, {
      path,
      schemaName,
      schema,
      definitions,
      examples: withExtraExamples(path, results),
      mainDate: chooseMainDate(path, fields, filters),
      references: [...fields.keys()].filter(
        (name) =>
          !OWN_FIELDS.has(name) &&
          filters.includes(name) &&
          namesCollection(name) &&
          namesRecord(fields.get(name), definitions),
      ),
    });
  }
  return templates;
}

/** The list example's records, then the resource hint's extra examples merged over the first one. */
function withExtraExamples(path: string, results: JsonObject[]): JsonObject[] {
  const first = results[0] as JsonObject;
  const extra = (RESOURCE_HINTS[path]?.extraExamples ?? []).map(
    (overrides) => ({ ...first, ...overrides }) as JsonObject,
  );
  return [...results, ...extra];
}

function jsonAt(value: JsonValue | undefined, keys: readonly string[]): JsonValue | undefined {
  let node = value;
  for (const key of keys) node = isObject(node) ? node[key] : undefined;
  return node;
}

/** `Account` when the 200 schema is a page (`count` + `results: {items: {$ref: .../Account}}`). */
function recordSchemaName(document: JsonObject, pageSchema: JsonValue | undefined): string | null {
  const page = resolveRef(document, pageSchema);
  if (!isObject(page) || !isObject(page.properties) || !isObject(page.properties.count)) return null;
  const items = jsonAt(page.properties.results, ['items', '$ref']);
  return typeof items === 'string' && items.startsWith(SCHEMA_REF) ? items.slice(SCHEMA_REF.length) : null;
}

/** Follows `#/components/schemas/...` references; undefined when the schema is not an object. */
export function resolveSchema(
  schema: JsonValue | undefined,
  definitions: JsonObject,
): JsonObject | undefined {
  let node = schema;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string' && hops < 32; hops++) {
    node = node.$ref.startsWith(SCHEMA_REF) ? definitions[node.$ref.slice(SCHEMA_REF.length)] : undefined;
  }
  return isObject(node) ? node : undefined;
}

/** The record's top-level property schemas (resolved), merged over `oneOf`/`anyOf` branches. */
function topLevelProperties(schema: JsonObject, definitions: JsonObject): Map<string, JsonObject> {
  const fields = new Map<string, JsonObject>();
  const visit = (node: JsonValue | undefined): void => {
    const resolved = resolveSchema(node, definitions);
    if (resolved === undefined) return;
    for (const branch of [...asArray(resolved.oneOf), ...asArray(resolved.anyOf)]) visit(branch);
    if (!isObject(resolved.properties)) return;
    for (const [name, property] of Object.entries(resolved.properties)) {
      const field = resolveSchema(property, definitions);
      if (field !== undefined && !fields.has(name)) fields.set(name, field);
    }
  };
  visit(schema);
  return fields;
}

/** A uuid, or an object (or its nullable `oneOf`) whose `id` is a uuid: a nested record. */
function namesRecord(field: JsonObject | undefined, definitions: JsonObject): boolean {
  if (field === undefined) return false;
  if (field.format === 'uuid') return true;
  return [field, ...asArray(field.oneOf), ...asArray(field.anyOf)].some((branch) => {
    const resolved = resolveSchema(branch, definitions);
    const id = isObject(resolved?.properties) ? resolved.properties.id : undefined;
    return isObject(id) && id.format === 'uuid';
  });
}

function asArray(value: JsonValue | undefined): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

/**
 * The main date: the resource's hint, else the first `<field>__range` filter of the list that names a
 * top-level date, date-time or `year` field (not `created_at`/`collected_at`), else the first field of
 * `MAIN_DATE_FIELDS` the record has.
 */
function chooseMainDate(path: string, fields: Map<string, JsonObject>, filters: string[]): string | null {
  const hinted = RESOURCE_HINTS[path]?.mainDate;
  if (hinted !== undefined) return hinted;
  const datable = (name: string) => {
    const field = fields.get(name);
    if (field === undefined || OWN_FIELDS.has(name)) return false;
    return DATE_FORMATS.has(String(field.format)) || name === 'year';
  };
  const ranged = filters.filter((f) => f.endsWith('__range')).map((f) => f.slice(0, -'__range'.length));
  return ranged.find(datable) ?? MAIN_DATE_FIELDS.find(datable) ?? null;
}
