/**
 * How one member of ours differs from the provider's, sorted by what it means for a real exchange:
 * `stricter` (ours refuses a value the provider's schema accepts), `ours-only` (a member or status the
 * provider's schema does not have: a client may meet it only here) and `looser` (ours accepts more).
 */
import type { JsonValue } from '../document/json.js';
import type { MemberFacts } from './schema-members.js';

export type DifferenceKind = 'stricter' | 'ours-only' | 'looser';

export interface MemberDifference {
  kind: DifferenceKind;
  /** `<member>: <difference>`, one way it differs, e.g. `results[].status: enum [ACTIVE, CANCELLED] vs none`. */
  text: string;
}

const LOWER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const show = (values: JsonValue[]) => `[${values.map((v) => String(v)).join(', ')}]`;
const types = (facts: MemberFacts) => facts.type?.join('|') ?? 'any';
const sameValue = (a: JsonValue, b: JsonValue) => JSON.stringify(a) === JSON.stringify(b);

/** `integer` is covered by `number`; `any` only by `any`. */
function uncoveredTypes(ours: MemberFacts, theirs: MemberFacts): boolean {
  if (ours.type === undefined) return false;
  if (theirs.type === undefined) return true;
  return theirs.type.some(
    (t) => !ours.type!.includes(t) && !(t === 'integer' && ours.type!.includes('number')),
  );
}

function extras(ours: string[] | undefined, theirs: string[] | undefined): string[] {
  return (ours ?? []).filter((value) => !(theirs ?? []).includes(value));
}

function tighterBounds(ours: MemberFacts, theirs: MemberFacts): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(ours.bounds ?? {})) {
    const their = theirs.bounds?.[key];
    const tighter = their === undefined || (LOWER.has(key) ? value > their : value < their);
    if (tighter) out.push(`${key} ${value} vs ${their ?? 'none'}`);
  }
  return out;
}

/** Where ours refuses what theirs accepts. */
function stricterProblems(ours: MemberFacts, theirs: MemberFacts): string[] {
  const out: string[] = [];
  if (ours.required && !theirs.required) out.push('required true vs false');
  // A member the provider requires without declaring it has no stated type to be stricter than.
  const typed = theirs.declared !== false;
  if (typed && uncoveredTypes(ours, theirs)) out.push(`type ${types(ours)} vs ${types(theirs)}`);
  if (typed && theirs.nullable && !ours.nullable) out.push('nullable false vs true');
  if (ours.enum !== undefined && theirs.enum === undefined) out.push(`enum ${show(ours.enum)} vs none`);
  const lacking = (theirs.enum ?? []).filter((v) => ours.enum && !ours.enum.some((w) => sameValue(v, w)));
  if (lacking.length > 0) out.push(`enum lacks ${lacking.join(', ')}`);
  for (const format of extras(ours.format, theirs.format))
    out.push(`format ${format} vs ${theirs.format?.join('|') ?? 'none'}`);
  for (const pattern of extras(ours.pattern, theirs.pattern)) out.push(`pattern ${pattern} vs none`);
  out.push(...tighterBounds(ours, theirs));
  for (const keyword of extras(ours.constraints, theirs.constraints)) out.push(`${keyword} vs none`);
  return out;
}

/** Where theirs refuses what ours accepts (informative: a real answer always fits ours there). */
function looserProblems(ours: MemberFacts, theirs: MemberFacts): string[] {
  const out: string[] = [];
  if (theirs.required && !ours.required) out.push('required false vs true');
  if (theirs.declared === false) out.push('type not stated by the provider');
  else if (uncoveredTypes(theirs, ours)) out.push(`type ${types(ours)} vs ${types(theirs)}`);
  if (ours.nullable && !theirs.nullable && theirs.declared !== false) out.push('nullable true vs false');
  if (theirs.enum !== undefined && ours.enum === undefined) out.push(`enum none vs ${show(theirs.enum)}`);
  for (const format of extras(theirs.format, ours.format))
    out.push(`format ${ours.format?.join('|') ?? 'none'} vs ${format}`);
  for (const pattern of extras(theirs.pattern, ours.pattern)) out.push(`pattern none vs ${pattern}`);
  for (const bound of tighterBounds(theirs, ours)) out.push(`${bound.replace(/ vs (\S+)$/, '')} (theirs)`);
  for (const keyword of extras(theirs.constraints, ours.constraints)) out.push(`${keyword} (theirs)`);
  return out;
}

/** `a.b` -> `a`, `a[]` -> `a`, `a[].b` -> `a[]`, `a` -> `` (the body). */
function parentOf(path: string): string {
  if (path.endsWith('[]')) return path.slice(0, -2);
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(0, dot);
}

/** An object whose schema requires n members has at least n: a `minProperties` up to n refuses nothing. */
function withRequiredCount(path: string, facts: MemberFacts, all: Record<string, MemberFacts>): MemberFacts {
  const required = Object.entries(all).filter(
    ([p, m]) => m.required && p !== '' && parentOf(p) === path,
  ).length;
  if (required === 0 || (facts.bounds?.minProperties ?? 0) >= required) return facts;
  return { ...facts, bounds: { ...facts.bounds, minProperties: required } };
}

/** Every difference between two flattened schemas, by member path. */
export function memberDifferences(
  ours: Record<string, MemberFacts>,
  theirs: Record<string, MemberFacts>,
): MemberDifference[] {
  const out: MemberDifference[] = [];
  const label = (path: string) => (path === '' ? '(body)' : path);
  for (const [path, stated] of Object.entries(theirs)) {
    const our = ours[path];
    const their = withRequiredCount(path, stated, theirs);
    if (our === undefined) {
      out.push({ kind: 'looser', text: `${label(path)}: only the provider's` });
      continue;
    }
    // One line per way the member differs, so each reason explains one kind of difference.
    for (const problem of stricterProblems(our, their))
      out.push({ kind: 'stricter', text: `${label(path)}: ${problem}` });
    for (const problem of looserProblems(our, their))
      out.push({ kind: 'looser', text: `${label(path)}: ${problem}` });
  }
  for (const [path, our] of Object.entries(ours)) {
    if (path in theirs) continue;
    // Required inside a member the provider has: its record may lack it. Inside one only ours has, the
    // requirement never meets a provider's record.
    if (our.required && parentOf(path) in theirs)
      out.push({ kind: 'stricter', text: `${label(path)}: only ours, required` });
    else out.push({ kind: 'ours-only', text: `${label(path)}: only ours` });
  }
  return out;
}
