/**
 * The provider's facts that the document is held to (openapi/checks/provider-facts.json, ours): for every
 * operation this API version shares with the provider's published schema (1.35.0), per status the
 * members of the answer, the request body's members and the query parameters, each with its types,
 * formats, patterns, enums, bounds, nullability and requiredness. Facts only, no text of the provider.
 * `npm run compare:provider -- --refresh-facts` writes the file from the provider's schema when it is at
 * hand; the checks in `npm test` read only the committed file.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { isObject, type JsonObject, type JsonValue } from '../document/json.js';
import { componentDeref, flattenSchema, type MemberFacts } from './schema-members.js';

export const PROVIDER_FACTS_PATH = resolve(import.meta.dirname, 'provider-facts.json');

/** Members by path (`''` is the body itself). */
export type MemberRecord = Record<string, MemberFacts>;

export interface OperationFacts {
  responses: Record<string, MemberRecord>;
  request?: MemberRecord;
  query: MemberRecord;
}

/** A part of the provider's schema the facts leave out, and the spec section that says why. */
export interface LeftOut {
  components: string;
  reason: string;
  spec: string;
}

export interface ProviderFacts {
  about: string;
  version: string;
  left_out: LeftOut[];
  operations: Record<string, OperationFacts>;
}

/**
 * The provider's schema describes Colombian (DIAN) invoices and tax statuses beside the Mexican (SAT)
 * ones on the same paths; this API version has no Colombian data, so those variants are not facts of it.
 */
export const LEFT_OUT: LeftOut[] = [
  {
    components: 'Dian',
    reason:
      'Colombian (DIAN) variants of invoices and tax statuses: fiscal data of this version is Mexican and Chilean, and Chile has its own paths.',
    spec: 'Data areas',
  },
];

const ABOUT =
  "Facts of the provider's published schema for the operations this API version shares with it (method and path): per status the members of the answer, then the request body and the query parameters. A member: type (absent: any), nullable, required, format, pattern, enum, bounds, constraints. Written by `npm run compare:provider -- --refresh-facts`; do not edit by hand.";

/** Reads the provider's facts-only reference document into the project's facts. */
export function extractProviderFacts(reference: JsonObject): ProviderFacts {
  const components = isObject(reference.components) ? reference.components : {};
  const deref = componentDeref(components, '#/components/');
  const skipBranch = (ref: string) => LEFT_OUT.some((left) => ref.endsWith(left.components));
  const flat = (schema: JsonValue | undefined): MemberRecord =>
    Object.fromEntries(flattenSchema(schema, { deref, skipBranch, openapi30: true, formatAsType: true }));
  const operations: Record<string, OperationFacts> = {};
  const source = isObject(reference.operations) ? reference.operations : {};
  for (const [key, raw] of Object.entries(source)) {
    if (!isObject(raw)) continue;
    const responses = isObject(raw.responses) ? raw.responses : {};
    const query: MemberRecord = {};
    for (const parameter of Array.isArray(raw.parameters) ? raw.parameters : []) {
      const resolved = deref(parameter).schema;
      if (resolved.in !== 'query' || typeof resolved.name !== 'string') continue;
      const facts = flat(resolved.schema)[''] ?? { nullable: true, required: false };
      query[resolved.name] = { ...facts, required: resolved.required === true };
    }
    operations[key.replaceAll('{}', '{id}')] = {
      responses: Object.fromEntries(
        Object.entries(responses).map(([status, schema]) => [status, flat(schema)]),
      ),
      ...(raw.requestBody !== undefined && { request: flat(raw.requestBody) }),
      query,
    };
  }
  return { about: ABOUT, version: '1.35.0', left_out: LEFT_OUT, operations };
}

/** A record written once; a later identical one is `"= <operation> <status>"` (see `loadProviderFacts`). */
const SAME_AS = '= ';

/** One member per line, so a change of the facts reads as a small diff; repeated records by reference. */
export function serializeFacts(facts: ProviderFacts): string {
  const written = new Map<string, string>();
  const members = (record: MemberRecord, indent: string, name: string) => {
    const text = `{\n${Object.entries(record)
      .map(([path, member]) => `${indent}  ${JSON.stringify(path)}: ${JSON.stringify(member)}`)
      .join(',\n')}\n${indent}}`;
    const key = JSON.stringify(record);
    const earlier = written.get(key);
    if (earlier !== undefined) return JSON.stringify(`${SAME_AS}${earlier}`);
    written.set(key, name);
    return text;
  };
  const operation = (key: string, facts: OperationFacts) => {
    const parts = [
      `      "responses": {\n${Object.entries(facts.responses)
        .map(([status, record]) => `        "${status}": ${members(record, '        ', `${key} ${status}`)}`)
        .join(',\n')}\n      }`,
      ...(facts.request ? [`      "request": ${members(facts.request, '      ', `${key} request`)}`] : []),
      `      "query": ${members(facts.query, '      ', `${key} query`)}`,
    ];
    return `{\n${parts.join(',\n')}\n    }`;
  };
  const operations = Object.entries(facts.operations)
    .map(([key, value]) => `    ${JSON.stringify(key)}: ${operation(key, value)}`)
    .join(',\n');
  return `{\n  "about": ${JSON.stringify(facts.about)},\n  "version": ${JSON.stringify(facts.version)},\n  "left_out": ${JSON.stringify(facts.left_out)},\n  "operations": {\n${operations}\n  }\n}\n`;
}

type StoredRecord = MemberRecord | string;
interface StoredOperation {
  responses: Record<string, StoredRecord>;
  request?: StoredRecord;
  query: StoredRecord;
}

/** Resolves the `"= <operation> <status|request|query>"` references of the stored file. */
export function parseProviderFacts(text: string): ProviderFacts {
  const stored = JSON.parse(text) as Omit<ProviderFacts, 'operations'> & {
    operations: Record<string, StoredOperation>;
  };
  const byName = new Map<string, MemberRecord>();
  const resolveRecord = (record: StoredRecord, name: string): MemberRecord => {
    if (typeof record !== 'string') {
      byName.set(name, record);
      return record;
    }
    const target = byName.get(record.slice(SAME_AS.length));
    if (target === undefined) throw new Error(`provider facts: ${name} refers to unknown ${record}`);
    return target;
  };
  const operations: Record<string, OperationFacts> = {};
  for (const [key, operation] of Object.entries(stored.operations)) {
    const responses = Object.fromEntries(
      Object.entries(operation.responses).map(([status, r]) => [
        status,
        resolveRecord(r, `${key} ${status}`),
      ]),
    );
    operations[key] = {
      responses,
      ...(operation.request !== undefined && { request: resolveRecord(operation.request, `${key} request`) }),
      query: resolveRecord(operation.query, `${key} query`),
    };
  }
  return { ...stored, operations };
}

/** The committed facts. */
export function loadProviderFacts(path = PROVIDER_FACTS_PATH): ProviderFacts {
  return parseProviderFacts(readFileSync(path, 'utf8'));
}
