/**
 * The forward-compatibility storm's changes to a JSON value, each one the provider documents as
 * non-breaking and a client cannot tell from a newer API version (Versioning 1: paths carry no version,
 * so a newer version reaches a client unannounced; the integration guidance asks clients to tolerate these): a
 * member it does not know in every object, at every depth; the members of every object in another order;
 * longer free text; new values of classification members (never of the members a client's flow turns
 * on: statuses, types, modes, ids, links); timestamps with another fractional precision, the same
 * instant. Nothing is removed and no value the client sends back changes. Deterministic: the same value
 * storms the same way.
 */

/** Members a newer version might add, the first one an object lacks being added. */
const NEW_MEMBERS = ['provider_metadata', 'classification_details', 'extra_attributes', 'internal_reference'];

/** Free-text members that may grow longer (never a name a client sends back, such as an institution's). */
const FREE_TEXT = new Set([
  'description',
  'display_name',
  'full_name',
  'legal_name',
  'business_name',
  'trade_name',
  'reference',
  'instructions',
]);
const LONGER = ' - detalhe adicional informado pela instituição numa versão mais recente da API';

/** Classification members whose enumerations a newer version extends (one object in three). */
const CLASSIFICATIONS = new Set([
  'category',
  'subcategory',
  'subtype',
  'operation_type',
  'document_type',
  'tax_category',
  'frequency',
  'employment_type',
  'income_type',
  'income_source_type',
  'payment_method',
  'payment_type',
  'salary_trend',
  'confidence',
  'delivery_method',
]);

const DATE_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The same instant with another fractional precision: none, or microseconds. */
export function otherPrecision(text: string): string {
  const match = DATE_TIME.exec(text);
  if (!match) return text;
  const [, seconds, fraction = '', zone] = match;
  if (/^\.0*$/.test(fraction)) return `${seconds}${zone}`;
  return `${seconds}${fraction.padEnd(7, '0')}${zone}`;
}

/** A value the enumeration did not have: the kind of value a newer version adds. */
export function newEnumValue(value: string): string {
  return /^[A-Z0-9_]+$/.test(value) ? `${value}_EXTENDED` : `${value} (extended)`;
}

/** What one storm keeps while it walks a value: how many classification members it met. */
interface Walk {
  classifications: number;
}

function stormString(key: string | undefined, text: string, walk: Walk): string {
  if (DATE_TIME.test(text)) return otherPrecision(text);
  if (key === undefined) return text;
  if (FREE_TEXT.has(key)) return `${text}${LONGER}`;
  if (CLASSIFICATIONS.has(key) && walk.classifications++ % 3 === 0) return newEnumValue(text);
  return text;
}

/** The unknown member an object gets: nested, so that objects inside it are unknown too. */
const unknownMember = () => ({ revision: 2, source: 'open_finance', details: { fields: [], updated: null } });

function stormObject(value: Record<string, unknown>, walk: Walk, depth: number): Record<string, unknown> {
  const stormed: Record<string, unknown> = {};
  const added = NEW_MEMBERS.find((name) => !(name in value));
  if (added !== undefined) stormed[added] = unknownMember();
  // Another order: the members reversed, the new one first.
  for (const key of Object.keys(value).reverse()) {
    const member = stormAny(value[key], walk, depth + 1, key);
    // An own `__proto__` member stays a member (an assignment would set the prototype).
    Object.defineProperty(stormed, key, {
      value: member,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return stormed;
}

/** Deeper than any answer of the API: left as it is. */
const MAX_DEPTH = 32;

function stormAny(value: unknown, walk: Walk, depth: number, key?: string): unknown {
  if (depth > MAX_DEPTH) return value;
  if (typeof value === 'string') return stormString(key, value, walk);
  if (Array.isArray(value)) return value.map((item) => stormAny(item, walk, depth + 1, key));
  if (value !== null && typeof value === 'object')
    return stormObject(value as Record<string, unknown>, walk, depth);
  return value;
}

/** `value` as a newer API version could send it. */
export function stormValue(value: unknown): unknown {
  return stormAny(value, { classifications: 0 }, 0);
}
