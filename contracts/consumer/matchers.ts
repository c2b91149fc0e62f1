/**
 * Matchers shaped after the document's schemas, so any faithful provider satisfies them: types,
 * regular expressions for ids, dates and enums, `eachLike` for lists. Example values are the
 * document's own, so `pact check-spec` can validate them.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MatchersV3 } from '@pact-foundation/pact';

const { eachLike, equal, fromProviderState, integer, regex, string } = MatchersV3;

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const DATE_TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$';

/** Ids of the document's examples, reused so the pact reads like the document. */
export const EXAMPLE_IDS = {
  link: '30cb4806-6e00-48a4-91c9-ca55968576c8',
  account: '0d3ffb69-f83b-456e-ad8e-208d0998d71d',
  transaction: '7e1f4c2a-8b3d-4a6e-9c5f-2d1e0f3a4b5c',
  otherTransaction: '3a9d2b1c-4e5f-4a7b-8c9d-0e1f2a3b4c5d',
  institution: 1,
  customer: '096b7ed4-717b-4b39-87a8-9225c85ec0c8',
  beneficiary: 'cf3e097c-9032-4e52-aeb5-7fef9b91c170',
  paymentInstitution: '375eff08-33be-4d41-8d24-13ab2c7e0632',
  paymentIntent: '3ba85076-4592-431d-a1bd-fd9a89c0e93a',
  paymentAuthorization: '8151c14d-056e-4450-bfd4-1d7d50c7cce2',
  session: '2675b703b9d4451f8d4861a3eee54449',
} as const;

export const uuid = (example: string) => regex(UUID, example);
export const date = (example = '2026-10-30') => regex(DATE, example);
export const dateTime = (example = '2026-11-01T12:00:00.000Z') => regex(DATE_TIME, example);
/** An absolute URL (PAGE-DEFAULT: `next` and `previous` are absolute). */
export const absoluteUrl = (example: string) => regex('^https?://\\S+$', example);
/**
 * A value the provider state injects: `{name}` in `template` becomes Pact's `${name}` expression, so
 * ids the provider creates reach the request; `example` is what the consumer test sends.
 */
export const fromState = (template: string, example: string) =>
  fromProviderState(template.replace(/\{\w+\}/g, '$$$&'), example);
/** RequestId: a non-empty string. */
export const requestId = () => string('8f6a0a2c1b7e4e3c9c1f0e6d5b4a3c2d');

type SchemaNode = {
  enum?: unknown[];
  anyOf?: SchemaNode[];
  items?: SchemaNode;
  properties?: Record<string, SchemaNode>;
};
const SCHEMAS = (
  JSON.parse(readFileSync(resolve(import.meta.dirname, '../../openapi/generated/openapi.json'), 'utf8')) as {
    components: { schemas: Record<string, SchemaNode> };
  }
).components.schemas;

/** A value of a document enum (`schema`, or its `property`; an array's items), so the regex follows the document. */
export function enumOf(schema: string, property: string | undefined, example: string) {
  const node = property === undefined ? SCHEMAS[schema] : SCHEMAS[schema]?.properties?.[property];
  // A nullable enum is `anyOf: [{enum}, {type: 'null'}]`: the values are in a branch.
  const branches = [node, node?.items, ...(node?.anyOf ?? [])];
  const values = branches
    .flatMap((branch) => branch?.enum ?? [])
    .filter((value): value is string => typeof value === 'string');
  if (!values.includes(example)) throw new Error(`${schema}.${property ?? ''} has no enum value ${example}`);
  return regex(`^(${values.join('|')})$`, example);
}

/** ERR-BODY: the error array, its item naming `code`; the message in words is matched by `message`. */
export function errorList(code: string, message: unknown = string('This value is not valid.')) {
  return eachLike({ request_id: requestId(), message, code: equal(code) });
}

/** PAGE-DEFAULT: the list envelope. `next`/`previous` are a URL matcher or `null` (first or last page). */
export function page(results: unknown, links: { next: unknown; previous: unknown; count?: unknown }) {
  return { count: links.count ?? integer(1), next: links.next, previous: links.previous, results };
}
