/**
 * The teeth matrix: for every rule of the simulator's catalogue of breakable rules, a simulator with
 * that rule broken (in process, 127.0.0.1, port 0) and the suite run on that rule alone, which must
 * fail it. One test file per area, so vitest runs the areas in parallel workers; inside a file the
 * rules run concurrently (each against its own simulator).
 */
import { expect } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import {
  BREAKABLE_RULE_IDS,
  BREAKABLE_RULES,
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

export interface TeethCase {
  id: BreakableRuleId;
  brk: string;
}

/** The breakable rules whose suite rule belongs to `area`, and those the suite has no rule for. */
export function teethCases(area: RuleArea): { cases: TeethCase[]; missing: BreakableRuleId[] } {
  const areaOf = new Map(suiteRules.map((rule) => [rule.id, rule.area]));
  const cases = BREAKABLE_RULE_IDS.filter((id) => areaOf.get(id) === area).map((id) => ({
    id,
    brk: BREAKABLE_RULES[id],
  }));
  // IDs the suite has no rule for yet are reported once, with the cross-cutting file.
  // IDs the suite has no rule for yet (AUTH-TENANT until its property lands) are listed once, here.
  const missing = area === 'cross-cutting' ? BREAKABLE_RULE_IDS.filter((id) => !areaOf.has(id)) : [];
  return { cases, missing };
}

/** Runs rule `id` against a simulator that breaks it; the suite's results (one per rule of that ID). */
export async function runBroken(id: BreakableRuleId): Promise<RuleResult[]> {
  const sandbox = SANDBOX.has(id);
  const target = await startSimulatorTarget([id], sandbox ? 'sandbox' : 'production');
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
export async function expectCaught({ id, brk }: TeethCase): Promise<void> {
  const results = await runBroken(id);
  const verdicts = results.map(outcome);
  const replay = `replay: ofkit simulate --break ${id}; ofkit check URL --rules ${id} --seed ${TEETH_SEED} --runs ${RUNS}`;
  expect(verdicts, `${id} broken (${brk}) was not caught; ${replay}`).toEqual([
    expect.stringMatching(new RegExp(`^${id}: failed`)),
  ]);
}
