/**
 * The catalogue of breakable rules: every server rule ID of the rule catalogue, each with its realistic
 * break; `--break` and `createSimulator({ brokenRules })` refuse the IDs it does not know.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RULES } from '../../../openapi/generated/rules.js';
import { simulateCommand } from '../../../scripts/cli/simulate.js';
import { DEFAULT_KEYS, parseSimulatorConfig } from '../config/simulator-config.js';
import { createSimulator } from '../simulator.js';
import {
  BREAKABLE_RULE_IDS,
  BREAKABLE_RULES,
  parseBrokenRules,
  UnknownRuleError,
} from './breakable-rules.js';

/** The server rule IDs of the rule catalogue (its CLIENT-* rules are the clients'). */
const SERVER_RULES = RULES.filter((rule) => rule.side === 'server').map((rule) => rule.id);

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
      /^--break: unknown rule "NOPE"; breakable rules: AUTH-BASIC, .*PAY-SANDBOX$/,
    );
    expect(() => parseBrokenRules(['CLIENT-RETRY-5XX'])).toThrow(/unknown rule "CLIENT-RETRY-5XX"/);
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
});
