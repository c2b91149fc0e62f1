/**
 * An answer's body against its documented schema: each Ajv error (JSON Schema 2020-12) becomes a
 * finding of its kind (a missing required member, a value outside an enum or a format, any other
 * break), named after the rule that governs it: ERR-BODY for an error answer (ERR-500-408 for 500 and
 * 408, LINK-MFA-428 for the 428's shape), RESP-DEPRECATED for a deprecated member,
 * RESP-REQUIRED-NULLABLE for a required member left out. Members the document does not name are found
 * by walking the body beside the schema.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { JsonValue } from '../../../../openapi/document/json.js';
import {
  projectedSchema,
  SHAPED_STATUSES,
  shapingOf,
} from '../../../../openapi/document/projected-schema.js';
import type { BridgeDocument } from '../../document/bridge-document.js';
import {
  documentedMembers,
  isDocumented,
  memberPath,
  schemasAt,
  walkObjects,
} from '../../document/schema-walk.js';
import { type ExchangeView, operationName } from '../exchange-view.js';
import { type Finding, type FindingKind, sampleOf } from '../finding.js';

/** The rule of an error answer's shape. */
export function errorBodyRule(status: number): string {
  if (status === 500 || status === 408) return 'ERR-500-408';
  if (status === 428) return 'LINK-MFA-428';
  return 'ERR-BODY';
}

function kindOf(error: ErrorObject): FindingKind {
  if (error.keyword === 'required') return 'missing-required';
  if (error.keyword === 'enum' || error.keyword === 'const') return 'enum';
  if (error.keyword === 'format' || error.keyword === 'pattern') return 'format';
  return 'schema';
}

/** Summaries of branches, and a nullable union's `must be null` beside the real error, say nothing new. */
function usefulErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const deeper = (error: ErrorObject) =>
    errors.some(
      (other) =>
        other !== error &&
        !(other.keyword === 'type' && other.params.type === 'null') &&
        !['oneOf', 'anyOf'].includes(other.keyword) &&
        other.instancePath.startsWith(error.instancePath),
    );
  return errors.filter((error) => {
    if (['oneOf', 'anyOf', 'if', 'not'].includes(error.keyword)) return !deeper(error);
    if (error.keyword === 'type' && error.params.type === 'null') return !deeper(error);
    return true;
  });
}

const valueAt = (value: unknown, pointer: string): unknown =>
  pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((current, step) => (current as Record<string, unknown> | undefined)?.[step], value);

const pathOfPointer = (pointer: string) =>
  memberPath(
    pointer
      .split('/')
      .slice(1)
      .map((step) => (/^\d+$/.test(step) ? Number(step) : step)),
  );

/** The schema to check this answer against (`fields` / `omit` shape a record's members). */
export function answerSchema(document: BridgeDocument, view: ExchangeView, schema: JsonValue): JsonValue {
  const shaping = shapingOf(view.query);
  return shaping && SHAPED_STATUSES.has(view.status)
    ? projectedSchema(document.raw, schema, shaping)
    : schema;
}

/** The findings of `view`'s JSON body against `schema`. */
export function schemaFindings(document: BridgeDocument, view: ExchangeView, schema: JsonValue): Finding[] {
  const body = view.responseJson;
  const validate = document.ajv.compile(schema);
  if (validate(body)) return [];
  const base = { operation: operationName(view), status: view.status, exchange: view.index };
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const error of usefulErrors(validate.errors ?? [])) {
    const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined;
    const pointer = missing === undefined ? error.instancePath : `${error.instancePath}/${missing}`;
    const member = pathOfPointer(pointer);
    const kind = kindOf(error);
    if (seen.has(`${kind} ${member}`)) continue;
    seen.add(`${kind} ${member}`);
    const deprecated = schemasAt(document, schema, body, pointer).some((node) => node.deprecated === true);
    const rule =
      view.status >= 400
        ? errorBodyRule(view.status)
        : deprecated
          ? 'RESP-DEPRECATED'
          : kind === 'missing-required'
            ? 'RESP-REQUIRED-NULLABLE'
            : undefined;
    const where = member === '' ? 'the body' : `\`${member}\``;
    findings.push({
      ...base,
      kind,
      ...(rule && { rule }),
      ...(member !== '' && { member }),
      message: `${where} ${error.message ?? 'is invalid'}${deprecated ? ' (a deprecated member)' : ''}`,
      ...(missing === undefined && { sample: sampleOf(valueAt(body, error.instancePath)) }),
    });
  }
  return findings;
}

/** The members the body holds that the document does not name, once each per exchange. */
export function undocumentedMembers(
  document: BridgeDocument,
  view: ExchangeView,
  schema: JsonValue,
): Finding[] {
  const found = new Map<string, unknown>();
  walkObjects(document, schema, view.responseJson, (object, schemas, path) => {
    const documented = documentedMembers(schemas);
    if (documented.any) return;
    for (const name in object) {
      if (isDocumented(documented, name)) continue;
      const at = memberPath([...path, name]);
      if (!found.has(at)) found.set(at, object[name]);
    }
  });
  return [...found].map(([member, value]) => ({
    kind: 'undocumented-member',
    operation: operationName(view),
    status: view.status,
    member,
    message: `\`${member}\` is not in the document`,
    sample: sampleOf(value),
    exchange: view.index,
  }));
}
