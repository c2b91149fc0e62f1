/**
 * The catalogue of breakable rules: every server rule ID of the rule catalogue, each with its realistic
 * break and, for some, other named breaks; `--break` and `createSimulator({ brokenRules })` refuse the
 * names it does not know; `simulate --help` and the README's teeth matrix show every break.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RULES } from '../../../openapi/generated/rules.js';
import { simulateCommand } from '../../../scripts/cli/simulate.js';
import { BREAKS_HELP, DEFAULT_KEYS, parseSimulatorConfig } from '../config/simulator-config.js';
import { createSimulator } from '../simulator.js';
import { startSimulator } from '../start-simulator.js';
import {
  BREAK_LISTINGS,
  BREAKABLE_RULE_IDS,
  BREAKABLE_RULES,
  parseBrokenRules,
  UNBREAKABLE_RULES,
  UnknownRuleError,
} from './breakable-rules.js';

/** The server rule IDs of the rule catalogue (its CLIENT-* rules are the clients'), but those no break can show. */
const SERVER_RULES = RULES.filter(
  (rule) => rule.side === 'server' && UNBREAKABLE_RULES[rule.id] === undefined,
).map((rule) => rule.id);

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = undefined;
});

describe('the catalogue of breakable rules', () => {
  it('covers every server rule ID of the rule catalogue, in its order, each with a one-line break', () => {
    expect(BREAKABLE_RULE_IDS).toEqual(SERVER_RULES);
    for (const id of BREAKABLE_RULE_IDS) expect(BREAKABLE_RULES[id]).toMatch(/^[^\n]{10,110}$/);
  });

  it('refuses an unknown ID, naming it and listing the known ones on one line', () => {
    expect([...parseBrokenRules(['PAGE-NAV', 'AUTH-TENANT'])]).toEqual(['PAGE-NAV', 'AUTH-TENANT']);
    expect(() => parseBrokenRules(['PAGE-NAV', 'NOPE'])).toThrow(UnknownRuleError);
    expect(() => parseBrokenRules(['NOPE'])).toThrow(
      /^--break: unknown rule "NOPE"; breakable rules: AUTH-BASIC, .*PAY-SANDBOX \(RULE-ID:name/,
    );
    expect(() => parseBrokenRules(['CLIENT-RETRY-5XX'])).toThrow(/unknown rule "CLIENT-RETRY-5XX"/);
  });

  it('a rule got wrong in several ways names its other breaks: RULE-ID:name', () => {
    const named = BREAK_LISTINGS.filter((listing) => listing.name.includes(':')).map((l) => l.name);
    expect(named).toEqual([
      'ERR-BODY:constant-request-id',
      'PAGE-DEFAULT:relative-links',
      'FILTER-LOOKUP:icontains-case',
      'LINK-MFA-428:no-session',
      'LINK-MFA-428:wrong-token-ends-session',
      'DATA-RETRIEVE:reversed-range-swapped',
      'RANGE-365:reversed-range-swapped',
      'TAX-RETURNS-MIXED:yearly-only',
    ]);
    expect([...parseBrokenRules(['FILTER-LOOKUP', 'FILTER-LOOKUP:icontains-case'])]).toHaveLength(2);
    expect(() => parseBrokenRules(['FILTER-LOOKUP:nope'])).toThrow(
      '--break: FILTER-LOOKUP has no break "nope"; its breaks: FILTER-LOOKUP, FILTER-LOOKUP:icontains-case',
    );
    for (const { name, description } of BREAK_LISTINGS) {
      expect(description, name).toMatch(/^[^\n]{10,110}$/);
      expect(BREAKS_HELP, name).toContain(`  ${name.padEnd(35)} ${description}`);
    }
  });

  it("the README's teeth matrix shows every break, with the catalogue's line", () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const rows = [...readme.matchAll(/^\| ([A-Z0-9-]+(?::[a-z-]+)?) \| (.+) \| caught \|$/gm)];
    expect(rows.map(([, name, description]) => ({ name, description }))).toEqual(
      BREAK_LISTINGS.map(({ name, description }) => ({ name, description })),
    );
  });

  it('createSimulator({ brokenRules }) refuses an unknown ID', async () => {
    const options = { seed: 's', environment: 'production' as const, keys: DEFAULT_KEYS };
    await expect(createSimulator({ ...options, brokenRules: ['page-nav'] })).rejects.toThrow(
      UnknownRuleError,
    );
  });

  it('--break takes known IDs; an unknown one exits 2 with one line', async () => {
    expect(parseSimulatorConfig(['--break', 'FILTER-IN', '--break', 'PAGE-NAV']).brokenRules).toEqual([
      'FILTER-IN',
      'PAGE-NAV',
    ]);
    const printed: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((text: string) => printed.push(text));
    expect(await simulateCommand(['--port', '0', '--break', 'NOPE'])).toBe(2);
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(
      /^ofkit simulate: --break: unknown rule "NOPE"; breakable rules: AUTH-BASIC, /,
    );
    expect(printed[0]).not.toContain('\n');
  });

  it('ERR-500-408 broken serves the plain-text page over HTTP, not an empty body', async () => {
    const key = DEFAULT_KEYS[0]!;
    const started = await startSimulator({
      seed: 'text-page',
      brokenRules: ['ERR-500-408'],
      standing: {
        faults: [{ operation_id: 'listInstitutions', status: 500, count: 1 }],
        scenarios: [],
        clock: [],
      },
    });
    try {
      const authorization = `Basic ${Buffer.from(`${key.secretId}:${key.secretPassword}`).toString('base64')}`;
      const answer = await fetch(`${started.url}/api/institutions/`, { headers: { authorization } });
      expect(answer.status).toBe(500);
      expect(answer.headers.get('content-type')).toBe('text/plain');
      expect(await answer.text()).toBe('Internal Server Error');
    } finally {
      await started.close();
    }
  });
});
