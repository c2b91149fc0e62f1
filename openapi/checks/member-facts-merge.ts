/**
 * How the facts of one member combine when two schemas speak about it: both hold (`allOf`, a schema's
 * own keywords beside its composition), or either holds (`oneOf`/`anyOf` branches: only what every
 * branch says constrains, and a member is required only where every branch that can hold it requires it).
 */
import type { MemberFacts, MemberMap } from './member-facts.js';

const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);

/** Distinct values, sorted. */
export const sorted = <T>(values: Iterable<T>) => [...new Set(values)].sort();

function intersectTypes(a?: string[], b?: string[]): string[] | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const out = a.filter((t) => b.includes(t));
  if ((a.includes('number') && b.includes('integer')) || (a.includes('integer') && b.includes('number')))
    out.push('integer');
  return sorted(out);
}

function mergeBounds(a: MemberFacts['bounds'], b: MemberFacts['bounds'], all: boolean) {
  const keys = all ? sorted([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]) : Object.keys(a ?? {});
  const out: Record<string, number> = {};
  for (const key of keys) {
    const [x, y] = [a?.[key], b?.[key]];
    if (x === undefined || y === undefined) {
      if (all) out[key] = (x ?? y) as number;
      continue;
    }
    // Both hold (all): the tighter bound; either holds: the looser one.
    out[key] = LOWER.has(key) === all ? Math.max(x, y) : Math.min(x, y);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

const optional = <K extends string, V>(key: K, value: V | undefined) =>
  (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;

/** Both hold (`allOf`, or a schema's own keywords beside its composition). */
export function bothFacts(a: MemberFacts, b: MemberFacts): MemberFacts {
  if (a.declared === false) return { ...b, required: a.required || b.required };
  if (b.declared === false) return { ...a, required: a.required || b.required };
  const list = (x?: string[], y?: string[]) => (x || y ? sorted([...(x ?? []), ...(y ?? [])]) : undefined);
  const enumBoth =
    a.enum && b.enum
      ? a.enum.filter((v) => b.enum!.some((w) => JSON.stringify(w) === JSON.stringify(v)))
      : undefined;
  return {
    ...optional('type', intersectTypes(a.type, b.type)),
    nullable: a.nullable && b.nullable,
    required: a.required || b.required,
    ...optional('format', list(a.format, b.format)),
    ...optional('pattern', list(a.pattern, b.pattern)),
    ...optional('enum', enumBoth ?? a.enum ?? b.enum),
    ...optional('bounds', mergeBounds(a.bounds, b.bounds, true)),
    ...optional('constraints', list(a.constraints, b.constraints)),
  };
}

/** A branch that accepts null and nothing else (`{type: 'null'}`, the nullable half of an `anyOf`). */
const onlyNull = (facts: MemberFacts) =>
  facts.nullable && facts.type !== undefined && facts.type.length === 0;

/** Either holds (`oneOf`/`anyOf` branches): only what both say constrains. */
export function eitherFacts(a: MemberFacts, b: MemberFacts): MemberFacts {
  if (a.declared === false) return { ...b, required: a.required && b.required };
  if (b.declared === false) return { ...a, required: a.required && b.required };
  // `anyOf: [X, {type: 'null'}]` is X or null: X's constraints hold for every value but null.
  if (onlyNull(b)) return { ...a, nullable: true, required: a.required && b.required };
  if (onlyNull(a)) return { ...b, nullable: true, required: a.required && b.required };
  const common = (x?: string[], y?: string[]) => {
    const out = (x ?? []).filter((v) => (y ?? []).includes(v));
    return out.length > 0 ? out : undefined;
  };
  const types = a.type && b.type ? sorted([...a.type, ...b.type]) : undefined;
  const values = a.enum && b.enum ? [...a.enum, ...b.enum] : undefined;
  return {
    ...optional('type', types),
    nullable: a.nullable || b.nullable,
    required: a.required && b.required,
    ...optional('format', common(a.format, b.format)),
    ...optional('pattern', common(a.pattern, b.pattern)),
    ...optional('enum', values && sorted(values.map((v) => JSON.stringify(v))).map((v) => JSON.parse(v))),
    ...optional('bounds', mergeBounds(a.bounds, b.bounds, false)),
    ...optional('constraints', common(a.constraints, b.constraints)),
  };
}

export function allMaps(a: MemberMap, b: MemberMap): MemberMap {
  const out = new Map(a);
  for (const [path, facts] of b) out.set(path, out.has(path) ? bothFacts(out.get(path)!, facts) : facts);
  return out;
}

/** Whether a branch can hold members at all (a `type: 'null'` alternative cannot). */
function holdsMembers(map: MemberMap): boolean {
  const types = map.get('')?.type;
  return types === undefined || types.includes('object') || types.includes('array');
}

export function eitherMaps(maps: MemberMap[]): MemberMap {
  const out: MemberMap = new Map();
  const paths = new Set(maps.flatMap((map) => [...map.keys()]));
  const structured = maps.filter(holdsMembers).length;
  for (const path of paths) {
    const declared = maps.flatMap((map) => (map.has(path) ? [map.get(path)!] : []));
    const merged = declared.reduce(eitherFacts);
    // A branch that could hold the member and does not declare it does not require it.
    const everywhere = path === '' ? declared.length === maps.length : declared.length >= structured;
    out.set(path, everywhere ? merged : { ...merged, required: false });
  }
  return out;
}
