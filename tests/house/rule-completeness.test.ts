/**
 * No server rule lands without its teeth: every server rule of openapi/rules.yaml has its conformance
 * property (property-tests/src/rules/), a simulator test named after it (`describe('RULE-ID', ...)` in
 * simulator/src/), and a break of the simulator's catalogue that the teeth matrix runs against the
 * property; a rule no break can show caught says why in the catalogue (`UNBREAKABLE_RULES`). The teeth
 * matrix itself skips a rule without a property; this is the test that fails on it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../openapi/document/api-document.js';
import { RULES } from '../../openapi/generated/rules.js';
import { allRules } from '../../property-tests/src/rules/index.js';
import { BREAK_LISTINGS, UNBREAKABLE_RULES } from '../../simulator/src/broken-rules/breakable-rules.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** What the house holds for the rules: each fact a set of rule IDs, and the reasons of the unbreakable. */
interface RuleHoldings {
  serverRules: readonly string[];
  properties: ReadonlySet<string>;
  simulatorTests: string;
  breaks: ReadonlySet<string>;
  unbreakable: Readonly<Record<string, string>>;
}

/** A `describe` (or `describe.each`, `.concurrent`...) whose title starts with the rule ID. */
const describes = (tests: string, id: string) =>
  new RegExp(`\\bdescribe(?:\\.\\w+)*\\(\\s*['"\`]${id}(?![A-Z0-9-])`).test(tests);

/** One line per missing piece: `RULE-ID: no ...`. */
function incompleteRules(held: RuleHoldings): string[] {
  const problems: string[] = [];
  for (const id of held.serverRules) {
    if (!held.properties.has(id)) problems.push(`${id}: no conformance property`);
    if (!describes(held.simulatorTests, id)) problems.push(`${id}: no simulator test describe('${id}', ...)`);
    const reason = held.unbreakable[id];
    if (reason !== undefined && reason.trim().length < 20)
      problems.push(`${id}: unbreakable without a reason worth reading`);
    if (reason === undefined && !held.breaks.has(id))
      problems.push(`${id}: no break in the teeth matrix, and no reason in UNBREAKABLE_RULES`);
    if (reason !== undefined && held.breaks.has(id))
      problems.push(`${id}: has a break yet is listed unbreakable`);
  }
  return problems;
}

function simulatorTests(): string {
  const listed = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'simulator/src'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  return listed
    .split('\n')
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => readFileSync(join(ROOT, file), 'utf8'))
    .join('\n');
}

describe('every server rule has its property, its simulator test and its teeth', () => {
  it('holds for every server rule of openapi/rules.yaml', () => {
    const serverRules = RULES.filter((rule) => rule.side === 'server').map((rule) => rule.id);
    expect(serverRules.length).toBeGreaterThan(50);
    const held: RuleHoldings = {
      serverRules,
      properties: new Set(allRules(loadApiDocument()).map((rule) => rule.id)),
      simulatorTests: simulatorTests(),
      breaks: new Set(BREAK_LISTINGS.map((listing) => listing.rule)),
      unbreakable: UNBREAKABLE_RULES,
    };
    expect(incompleteRules(held)).toEqual([]);
  });

  it('fails on a planted violation: a new server rule with nothing, and one unbreakable without a reason', () => {
    const held: RuleHoldings = {
      serverRules: ['PAGE-NAV', 'PAGE-NEW', 'PAGE-ODD'],
      properties: new Set(['PAGE-NAV', 'PAGE-ODD']),
      simulatorTests:
        "describe('PAGE-NAV', () => {});\ndescribe('PAGE-ODD: odd pages', () => {});\ndescribe('PAGE-NEWER', () => {});",
      breaks: new Set(['PAGE-NAV']),
      unbreakable: { 'PAGE-ODD': 'no' },
    };
    expect(incompleteRules(held)).toEqual([
      'PAGE-NEW: no conformance property',
      "PAGE-NEW: no simulator test describe('PAGE-NEW', ...)",
      'PAGE-NEW: no break in the teeth matrix, and no reason in UNBREAKABLE_RULES',
      'PAGE-ODD: unbreakable without a reason worth reading',
    ]);
  });
});
