/**
 * The teeth matrix: for every break of the simulator's catalogue (each rule's first break and its named
 * others, `RULE-ID:name`), a simulator with that break (in process, 127.0.0.1, port 0) and the suite run
 * on the broken rule alone, which must fail it; where the rule's own property must name the violation,
 * the failure's message says what broke. One test file per area, so vitest runs the areas in parallel
 * workers; inside a file the breaks run concurrently (each against its own simulator).
 */
import { expect } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import {
  BREAK_LISTINGS,
  BREAKABLE_RULE_IDS,
  type BreakableRuleId,
} from '../../../simulator/src/broken-rules/breakable-rules.js';
import { allRules } from '../../src/rules/index.js';
import type { RuleArea } from '../../src/rules/rule.js';
import type { RuleResult } from '../../src/runner/run-rule.js';
import { runSuite } from '../../src/runner/run-suite.js';
import { parseTargetConfig } from '../../src/target/target-config.js';
import { outcome, startSimulatorTarget } from '../simulator-target.js';

/** Printed in every verdict: `ofkit simulate --break ID` and `ofkit check --rules ID --seed SEED` replay it. */
export const TEETH_SEED = 20261124;
/** Few runs: the examples every rule tries first, then a handful of random ones. */
const RUNS = 3;
/** Breaks observable only against a sandbox target (the rule is skipped against production). */
const SANDBOX: ReadonlySet<BreakableRuleId> = new Set(['PAY-SANDBOX']);

const document = loadApiDocument();
const suiteRules = allRules(document);

/**
 * Breaks the rule's own property must name, not only fail: what the failure message says (a server
 * with the fault fails the rule that forbids it, with the reason, not a neighbour's shape check).
 */
const OWN_VIOLATIONS: Readonly<Record<string, RegExp>> = {
  'FILTER-LOOKUP:icontains-case': /__icontains=.* answered \[.*filtering the full list gives/,
  'TAX-RETURNS-MIXED:yearly-only': /lists no record of oneOf branch \d, which the retrievals/,
  'LINK-MFA-428:no-session': /the 428 item's `session` \(a string\) is missing/,
  'PAGE-DEFAULT:relative-links': /`(next|previous)` is not an absolute URL: \/api\//,
  'LINK-MFA-428:wrong-token-ends-session': /after the wrong token ".*" on it: wanted 20[01], got 400/,
  'DATA-RETRIEVE:reversed-range-swapped':
    /before `(date|year)_from` \(x-ordered-range\).*: wanted 400, got 20[01]/,
  'RANGE-365:reversed-range-swapped': /before `date_from` \(x-ordered-range\).*: wanted 400, got 20[01]/,
  'ERR-BODY:constant-request-id': /answered 401 with the same request_id/,
};

export interface TeethCase {
  /** The broken rule. */
  id: BreakableRuleId;
  /** The break: `--break` takes it (the rule ID, or `RULE-ID:name`). */
  name: string;
  brk: string;
}

/** The breaks whose suite rule belongs to `area`, and the rules the suite has no rule for. */
export function teethCases(area: RuleArea): { cases: TeethCase[]; missing: BreakableRuleId[] } {
  const areaOf = new Map(suiteRules.map((rule) => [rule.id, rule.area]));
  const cases = BREAK_LISTINGS.filter(({ rule }) => areaOf.get(rule) === area).map(
    ({ rule, name, description }) => ({ id: rule, name, brk: description }),
  );
  // IDs the suite has no rule for yet are listed once, with the cross-cutting file.
  const missing = area === 'cross-cutting' ? BREAKABLE_RULE_IDS.filter((id) => !areaOf.has(id)) : [];
  return { cases, missing };
}

/** Runs rule `id` against a simulator with the break `name`; the suite's results (one per rule of that ID). */
export async function runBroken(id: BreakableRuleId, name: string = id): Promise<RuleResult[]> {
  const sandbox = SANDBOX.has(id);
  const target = await startSimulatorTarget([name], sandbox ? 'sandbox' : 'production');
  try {
    const config = parseTargetConfig({
      baseUrl: target.baseUrl,
      ...(sandbox && {
        keys: ['ofkit-sandbox-key:ofkit-sandbox-secret'],
        file: { environment: 'sandbox' },
      }),
    });
    const rules = suiteRules.filter((rule) => rule.id === id);
    const suite = await runSuite({ config, rules, seed: TEETH_SEED, runs: RUNS, document });
    return suite.results;
  } finally {
    await target.stop();
  }
}

/** The verdict: the suite fails the broken rule (the message names the seed to replay it). */
export async function expectCaught({ id, name, brk }: TeethCase): Promise<void> {
  const results = await runBroken(id, name);
  const verdicts = results.map(outcome);
  const replay = `replay: ofkit simulate --break ${name}; ofkit check URL --rules ${id} --seed ${TEETH_SEED} --runs ${RUNS}`;
  expect(verdicts, `${name} (${brk}) was not caught; ${replay}`).toEqual([
    expect.stringMatching(new RegExp(`^${id}: failed`)),
  ]);
  const own = OWN_VIOLATIONS[name];
  if (own) expect(results[0]?.failure?.message, `${name}: the rule names its own violation`).toMatch(own);
}
