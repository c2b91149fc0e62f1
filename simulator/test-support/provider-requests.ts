/**
 * Test support: requests the provider's published schema accepts, from the project's facts of it
 * (openapi/checks/provider-facts.json), and which of their members our document is stricter on (every
 * such difference is cited by openapi/checks/provider-differences.yaml; `npm run check:openapi` holds
 * it so).
 */
import { compareWithProvider } from '../../openapi/checks/provider-comparison.js';
import { loadProviderFacts, type MemberRecord } from '../../openapi/checks/provider-facts.js';
import type { MemberFacts } from '../../openapi/checks/schema-members.js';
import type { JsonObject, JsonValue } from '../../openapi/document/json.js';

export interface SharedOperation {
  /** `METHOD /path/`, as the facts and the comparison name it. */
  key: string;
  method: string;
  path: string;
  query: MemberRecord;
  request: MemberRecord | undefined;
}

/** The operations this API shares with the provider, with their query and body facts. */
export function sharedOperations(): SharedOperation[] {
  return Object.entries(loadProviderFacts().operations).map(([key, facts]) => {
    const [method = '', path = ''] = key.split(' ');
    return { key, method, path, query: facts.query, request: facts.request };
  });
}

const CITED = /^(\S+ \S+) (query|request) ([^:\s]+): /;

/** `METHOD /path/ query name` and `METHOD /path/ request name` of every member ours is stricter on. */
export function citedMembers(document: JsonObject): Set<string> {
  const cited = new Set<string>();
  for (const { kind, line } of compareWithProvider(document, loadProviderFacts())) {
    const found = kind === 'stricter' ? CITED.exec(line) : null;
    if (found) cited.add(`${found[1]} ${found[2]} ${found[3]}`);
  }
  return cited;
}

/** A text that is no number, no date, no id and no value of any enum: the edge of a free string. */
export const FREE_TEXT = 'not-a-value';
/** Texts tried against a pattern the provider states. */
const SAMPLES = ['2026-10-01', '2026-10-01T00:00:00Z', '0', FREE_TEXT];

/** A string the provider's schema accepts for the member, at its edge where it states nothing. */
export function acceptedText(facts: MemberFacts): string {
  if (facts.enum !== undefined && facts.enum.length > 0) return String(facts.enum[0]);
  const types = facts.type ?? [];
  if (types.includes('integer')) return String(facts.bounds?.minimum ?? 0);
  if (types.includes('number')) return '0';
  if (types.includes('boolean')) return 'true';
  if (facts.format?.includes('uuid')) return '00000000-0000-4000-8000-000000000000';
  if (facts.format?.includes('date')) return '2026-10-01';
  if (facts.format?.includes('date-time')) return '2026-10-01T00:00:00Z';
  const patterns = (facts.pattern ?? []).map((pattern) => new RegExp(pattern, 'u'));
  if (patterns.length === 0) return FREE_TEXT;
  return SAMPLES.find((sample) => patterns.every((pattern) => pattern.test(sample))) ?? FREE_TEXT;
}

/**
 * The body values the provider's schema accepts for a member: each enum value (and null where it is
 * nullable), `true` for a boolean, a list for an array (of its items' first enum value), else the edge
 * text of `acceptedText` (a number for a number).
 */
export function acceptedValues(name: string, request: MemberRecord): JsonValue[] {
  const facts = request[name];
  if (facts === undefined) return [];
  const types = facts.type ?? [];
  const nullable: JsonValue[] = facts.nullable ? [null] : [];
  if (facts.enum !== undefined && facts.enum.length > 0) return [...facts.enum, ...nullable];
  if (types.includes('array')) {
    const item = request[`${name}[]`];
    return [item?.enum?.length ? [item.enum[0] ?? null] : [], ...nullable];
  }
  if (types.includes('boolean')) return [true, ...nullable];
  if (types.includes('integer') || types.includes('number')) return [facts.bounds?.minimum ?? 0, ...nullable];
  return [acceptedText(facts), ...nullable];
}
