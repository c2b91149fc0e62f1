/**
 * The description of every data resource, read from the document: its operations (by the convention
 * `P/`, `P/{id}/`, `P/{id}/history/`), the retrieve operation's extensions (`x-applies-to`,
 * `x-max-range-days`, `x-default-range-days`, `x-max-records-per-period`, `x-prerequisite`) and body
 * parameters (dates, `type`, the parent record, `attach_*`), plus the hand-written row of
 * `resource-table.ts`.
 */
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import { jsonMediaOf, resolveRef } from '../../../openapi/document/document-walk.js';
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import { buildRecordTemplates, type RecordTemplate } from './records/record-templates.js';
import { DEFAULT_ROW, RESOURCE_TABLE, type ResourceRow } from './resource-table.js';

export interface ResourceOperations {
  list?: string;
  retrieve?: string;
  /** LINK-MFA-428: only collections with a resume PATCH pause for a token. */
  resume?: string;
  get?: string;
  delete?: string;
  /** EXCHANGE-HISTORY: GET `P/{id}/history/`. */
  history?: string;
}

export interface AppliesTo {
  readonly institution_types: readonly string[];
  readonly countries: readonly string[];
}

/** The retrieve body's range parameters: `date_from`/`date_to` (days) or `year_from`/`year_to`. */
export interface DateParams {
  readonly from: string;
  readonly to: string;
  readonly unit: 'day' | 'year';
}

/** The retrieve body's `type` enum that is also a record field: each value has its own records. */
export interface TypeStreams {
  readonly field: string;
  readonly values: readonly string[];
  readonly mode: 'match' | 'set';
  /** The request schema's `default` (as the records spell it), taken when the body has no `type`; null: every value. */
  readonly fallback: string | null;
}

/** The record another resource's records belong to (`account`, `investment`, `employment_record`). */
export interface ParentLink {
  readonly path: string;
  readonly field: string;
  /** The retrieve body's parameter that picks one parent, if any. */
  readonly bodyField: string | null;
  readonly categories: readonly string[] | null;
  /** EMPLOYMENT-METRICS-PREREQ: parents must have been retrieved before (`x-prerequisite`). */
  readonly storedOnly: boolean;
}

export interface DataResource {
  readonly path: string;
  readonly template: RecordTemplate;
  readonly operations: ResourceOperations;
  readonly appliesTo: AppliesTo | null;
  readonly dates: DateParams | null;
  /** RANGE-365. */
  readonly maxRangeDays: number | null;
  /** Days before the end of the range where a range without a start begins. */
  readonly defaultRangeDays: number;
  /** TAX-RETENTIONS-500. */
  readonly maxRecordsPerPeriod: number | null;
  readonly types: TypeStreams | null;
  readonly parent: ParentLink | null;
  /**
   * DATA-RETRIEVE: the retrieval answers the one record itself, not a list (the document's 201 is the
   * record: tax status, tax compliance status and incomes, as the provider answers them).
   */
  readonly answersOne: boolean;
  /** `attach_xml: true` fills the record's `xml`, `attach_pdf` its `pdf` or `files` (choice of content). */
  readonly attachments: readonly { readonly bodyField: string; readonly recordField: string }[];
  readonly row: ResourceRow;
}

const OPERATION_SLOTS: Record<string, keyof ResourceOperations> = {
  'GET ': 'list',
  'POST ': 'retrieve',
  'PATCH ': 'resume',
  'GET {id}/': 'get',
  'DELETE {id}/': 'delete',
  'GET {id}/history/': 'history',
};

/**
 * Every data resource of the document, keyed by collection path: its operations read from the
 * document's index, its records and retrieve bodies from `document`, the document with the values the
 * simulator sends (the same operations, stricter schemas).
 */
export function describeResources(api: ApiDocument, document: JsonObject): Map<string, DataResource> {
  const templates = buildRecordTemplates(document);
  const operations = new Map<string, ResourceOperations>();
  const retrieves = new Map<string, JsonObject>();
  for (const { method, path, raw: operation } of api.operations) {
    const collection = [...templates.keys()].find((p) => path.startsWith(p));
    const slot = collection && OPERATION_SLOTS[`${method} ${path.slice(collection.length)}`];
    if (!collection || !slot) continue;
    const ops = operations.get(collection) ?? {};
    ops[slot] = String(operation.operationId);
    operations.set(collection, ops);
    if (slot === 'retrieve') retrieves.set(collection, operation);
  }
  const resources = new Map<string, DataResource>();
  for (const [path, template] of templates) {
    const retrieve = retrieves.get(path) ?? {};
    resources.set(
      path,
      describeResource(document, template, operations.get(path) ?? {}, retrieve, [...templates.keys()]),
    );
  }
  return resources;
}

function describeResource(
  document: JsonObject,
  template: RecordTemplate,
  operations: ResourceOperations,
  retrieve: JsonObject,
  collections: string[],
): DataResource {
  const body = retrieveBody(document, retrieve);
  const properties = isObject(body.properties) ? body.properties : {};
  const row = RESOURCE_TABLE[template.path] ?? DEFAULT_ROW;
  const dates = dateParams(properties);
  const number = (name: string) => {
    const value = retrieve[name] ?? body[name];
    return typeof value === 'number' ? value : null;
  };
  const maxRangeDays = number('x-max-range-days');
  return {
    path: template.path,
    template,
    operations,
    appliesTo: isObject(retrieve['x-applies-to']) ? (retrieve['x-applies-to'] as unknown as AppliesTo) : null,
    dates,
    maxRangeDays,
    // Without either extension a range without a start covers 365 days (choice); without dates, today.
    defaultRangeDays: number('x-default-range-days') ?? maxRangeDays ?? (dates ? 365 : 0),
    maxRecordsPerPeriod: number('x-max-records-per-period'),
    types: typeStreams(template, properties, row),
    parent: parentLink(template, properties, row, collections, retrieve),
    answersOne: answersOneRecord(document, retrieve),
    attachments: Object.keys(properties)
      .filter((name) => name.startsWith('attach_'))
      .map((bodyField) => ({ bodyField, recordField: attachmentField(template, bodyField) }))
      .filter(({ recordField }) => template.examples.some((example) => recordField in example)),
    row,
  };
}

/** `attach_xml` fills `xml`, `attach_pdf` fills `pdf`, or `files` where the record keeps its documents there. */
function attachmentField(template: RecordTemplate, bodyField: string): string {
  const field = bodyField.slice('attach_'.length);
  const hasFiles = template.examples.some((example) => 'files' in example && !(field in example));
  return field === 'pdf' && hasFiles ? 'files' : field;
}

/** Whether the retrieval's stored answer (201) is one record rather than a list of them. */
function answersOneRecord(document: JsonObject, retrieve: JsonObject): boolean {
  const responses = isObject(retrieve.responses) ? retrieve.responses : {};
  const schema = resolveRef(document, jsonMediaOf(document, responses['201'])?.schema);
  return isObject(schema) && schema.type !== 'array';
}

function retrieveBody(document: JsonObject, retrieve: JsonObject): JsonObject {
  const schema = resolveRef(document, jsonMediaOf(document, retrieve.requestBody)?.schema);
  return isObject(schema) ? schema : {};
}

/** Years win when a body has both (tax returns: yearly by years, monthly by `date_from`/`date_to`). */
function dateParams(properties: JsonObject): DateParams | null {
  for (const prefix of ['year', 'date'] as const) {
    const from = `${prefix}_from`;
    const to = `${prefix}_to`;
    if (!isObject(properties[from]) || !(to in properties)) continue;
    return { from, to, unit: prefix === 'year' ? 'year' : 'day' };
  }
  return null;
}

/** A member's enum, also when written nullable as `anyOf: [{enum}, {type: 'null'}]` (the generators' form). */
function enumMember(schema: JsonValue | undefined): JsonObject | null {
  if (!isObject(schema)) return null;
  if (Array.isArray(schema.enum)) return schema;
  const branch = Array.isArray(schema.anyOf)
    ? schema.anyOf.find((part) => isObject(part) && Array.isArray(part.enum))
    : undefined;
  return isObject(branch)
    ? { ...branch, ...(schema.default !== undefined && { default: schema.default }) }
    : null;
}

function typeStreams(template: RecordTemplate, properties: JsonObject, row: ResourceRow): TypeStreams | null {
  const type = enumMember(properties.type);
  if (type === null || !Array.isArray(type.enum)) return null;
  if (!template.examples.some((example) => 'type' in example)) return null;
  // A record's `type` is spelt as the records of the examples spell it (the provider's: invoices
  // `INFLOW`, tax returns `yearly`), whatever the case of the request's enum.
  const spelt = recordSpelling(template);
  return {
    field: 'type',
    // A nullable `type` (invoices) lists null too: null asks for every value, it is not one.
    values: type.enum.filter((value) => value !== null).map((value) => spelt(String(value))),
    mode: row.typeMode ?? 'set',
    fallback: typeof type.default === 'string' ? spelt(type.default) : null,
  };
}

/** A request's `type` value as the examples' records spell it (upper case when none holds it). */
function recordSpelling(template: RecordTemplate): (value: string) => string {
  const spellings = template.examples.map((example) => example.type).filter((t) => typeof t === 'string');
  return (value) => spellings.find((t) => t.toLowerCase() === value.toLowerCase()) ?? value.toUpperCase();
}

/** The parent collection is named after the reference field: `employment_record` -> `.../employment-records/`. */
function parentLink(
  template: RecordTemplate,
  properties: JsonObject,
  row: ResourceRow,
  collections: string[],
  retrieve: JsonObject,
): ParentLink | null {
  const field = template.references[0];
  if (field === undefined) return null;
  const segment = `/${field.replaceAll('_', '-')}s/`;
  const path = collections.find((collection) => collection.endsWith(segment));
  if (path === undefined) return null;
  const prerequisite = isObject(retrieve['x-prerequisite'])
    ? retrieve['x-prerequisite'].retrieval
    : undefined;
  return {
    path,
    field,
    bodyField: field in properties ? field : null,
    categories: row.accountCategories ?? null,
    storedOnly: prerequisite === path,
  };
}
