/**
 * Records shaped like the provider's, built from its facts (provider-facts.json): every member it
 * declares, with a value of its type, format and enum (`full`), or `null` wherever it allows null
 * (`nulls`). Validating them against the document with Ajv, composition and all, cross-checks the
 * member-by-member strictness comparison: a record can only be refused at a member that comparison
 * lists as stricter.
 */
import type { MemberRecord } from './provider-facts.js';
import type { MemberFacts } from './schema-members.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type RecordMode = 'full' | 'nulls';

const parentOf = (path: string) => {
  if (path.endsWith('[]')) return path.slice(0, -2);
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
};

/** A string of the member's format (a uuid for any `link`, which is a link id), else `text`. */
function stringValue(facts: MemberFacts, path: string): string {
  const format = facts.format?.[0];
  if (format === 'uuid' || /(^|\.)link$/.test(path)) return '3f2504e0-4f89-41d3-9a0c-0305e82c3301';
  if (format === 'date') return '2026-01-02';
  if (format === 'date-time') return '2026-01-02T03:04:05Z';
  if (format === 'email') return 'someone@example.com';
  if (facts.pattern?.some((p) => p.includes('a-f0-9'))) return '0123456789abcdef0123456789abcdef';
  if (facts.pattern?.some((p) => p.includes('[A-Z]{3}'))) return 'MXN';
  return 'text';
}

function leaf(facts: MemberFacts, path: string): Json {
  if (facts.enum !== undefined && facts.enum.length > 0) return facts.enum[0] as Json;
  const type = facts.type?.[0] ?? 'string';
  if (type === 'integer') return 2;
  if (type === 'number') return 2.5;
  if (type === 'boolean') return true;
  return stringValue(facts, path);
}

/** The value at `path` of a record the facts describe. */
export function providerRecord(record: MemberRecord, mode: RecordMode, path = ''): Json {
  const facts = record[path] ?? { nullable: true, required: false };
  if (mode === 'nulls' && facts.nullable && path !== '' && !path.endsWith('[]')) return null;
  const items = `${path}[]`;
  if (record[items] !== undefined) return [providerRecord(record, mode, items)];
  if (facts.type?.includes('array')) return [];
  const children = Object.keys(record).filter((p) => p !== path && !p.endsWith('[]') && parentOf(p) === path);
  if (children.length === 0 && !facts.type?.includes('object')) return leaf(facts, path);
  const object: { [key: string]: Json } = {};
  for (const child of children)
    object[child.slice(path === '' ? 0 : path.length + 1)] = providerRecord(record, mode, child);
  return object;
}

/** An Ajv error's place as a member path: `/results/0/account` -> `results[].account`. */
export function memberPathOf(instancePath: string, missingProperty?: string): string {
  const steps = instancePath.split('/').slice(1);
  if (missingProperty !== undefined) steps.push(missingProperty);
  let path = '';
  for (const step of steps) path = /^\d+$/.test(step) ? `${path}[]` : path === '' ? step : `${path}.${step}`;
  return path;
}
