/**
 * What `npm run generate` makes of openapi/rules.yaml: the typed catalogue (openapi/generated/rules.ts)
 * and the rule table of docs/rules.md. The YAML is checked here, so a malformed rule never reaches them.
 */
export interface CatalogueRule {
  id: string;
  area: 'cross-cutting' | 'links' | 'data' | 'webhooks' | 'payments' | 'client';
  side: 'server' | 'client';
  choice: boolean;
  section: string;
  statement: string;
}

const AREAS = ['cross-cutting', 'links', 'data', 'webhooks', 'payments', 'client'];
const START = '<!-- rules:start (generated from openapi/rules.yaml by `npm run generate`) -->';
const END = '<!-- rules:end -->';

function fail(message: string): never {
  throw new Error(`openapi/rules.yaml: ${message}`);
}

function parseRule(value: unknown, index: number): CatalogueRule {
  if (typeof value !== 'object' || value === null) fail(`rule ${index} is not a mapping`);
  const rule = value as Record<string, unknown>;
  const text = (name: string) => {
    const member = rule[name];
    if (typeof member !== 'string' || member.trim() === '') fail(`rule ${index}: ${name} must be a string`);
    return member.trim();
  };
  const id = text('id');
  if (!/^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$/.test(id)) fail(`rule ${index}: id ${id} is not an upper-case ID`);
  const area = text('area');
  if (!AREAS.includes(area)) fail(`${id}: area ${area} is not one of ${AREAS.join(', ')}`);
  const side = text('side');
  if (side !== 'server' && side !== 'client') fail(`${id}: side must be server or client`);
  if (typeof rule.choice !== 'boolean') fail(`${id}: choice must be true or false`);
  const known = new Set(['id', 'area', 'side', 'choice', 'section', 'statement']);
  const extra = Object.keys(rule).filter((key) => !known.has(key));
  if (extra.length > 0) fail(`${id}: unknown members ${extra.join(', ')}`);
  return {
    id,
    area: area as CatalogueRule['area'],
    side,
    choice: rule.choice,
    section: text('section'),
    statement: text('statement'),
  };
}

/** Checks the parsed YAML: every member present and typed, IDs unique. */
export function parseRuleCatalogue(document: unknown): CatalogueRule[] {
  const list = (document as { rules?: unknown } | null)?.rules;
  if (!Array.isArray(list)) fail('has no `rules:` list');
  const rules = list.map(parseRule);
  const seen = new Set<string>();
  for (const { id } of rules) {
    if (seen.has(id)) fail(`${id} appears twice`);
    seen.add(id);
  }
  return rules;
}

/** The catalogue as a typed module: `RULES`, the `RuleId` union and `ruleTitle`. */
export function ruleModule(rules: CatalogueRule[], note: string): string {
  return [
    `/* ${note} */`,
    '',
    '/** One rule of the catalogue (openapi/rules.yaml). */',
    'export interface RuleEntry {',
    '  readonly id: string;',
    "  readonly area: 'cross-cutting' | 'links' | 'data' | 'webhooks' | 'payments' | 'client';",
    "  readonly side: 'server' | 'client';",
    '  /** The specification leaves this open; ofkit chose the behaviour. */',
    '  readonly choice: boolean;',
    '  /** The part of the interface specification the rule comes from. */',
    '  readonly section: string;',
    '  readonly statement: string;',
    '}',
    '',
    `export const RULES = ${JSON.stringify(rules, null, 2)} as const satisfies readonly RuleEntry[];`,
    '',
    "export type RuleId = (typeof RULES)[number]['id'];",
    '',
    '/** The rules by ID. */',
    'export const RULES_BY_ID: ReadonlyMap<string, RuleEntry> = new Map(RULES.map((rule) => [rule.id, rule]));',
    '',
    '/** `<ID>: <statement>`, the title a report gives the rule; undefined for an ID not in the catalogue. */',
    'export function ruleTitle(id: string): string | undefined {',
    '  const rule = RULES_BY_ID.get(id);',
    "  return rule === undefined ? undefined : rule.id + ': ' + rule.statement;",
    '}',
    '',
  ].join('\n');
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The rule table of docs/rules.md: one row per rule, grouped by area as the catalogue orders them. */
export function ruleTable(rules: CatalogueRule[]): string {
  const rows = rules.map(
    (rule) =>
      `| ${rule.id} | ${rule.area} | ${rule.side}${rule.choice ? ' (choice)' : ''} | ${cell(rule.statement)} | ${cell(rule.section)} |`,
  );
  return ['| ID | area | side | rule | spec section |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** Replaces what stands between a page's rule markers; a page without them is left alone. */
export function spliceRuleTable(page: string, table: string): string {
  const start = page.indexOf(START);
  const end = page.indexOf(END);
  if (start < 0 || end < start) return page;
  return `${page.slice(0, start)}${START}\n${table}\n${page.slice(end)}`;
}
