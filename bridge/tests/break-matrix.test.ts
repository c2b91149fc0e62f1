/**
 * The bridge has teeth: with each rule of the simulator's break catalogue broken on purpose
 * (`--break RULE`, startSimulator's brokenRules), the scenes of the sample session that exercise it,
 * recorded through the proxy, produce a finding named after that very rule; every other rule is one
 * passing traffic cannot show, listed with its reason in docs/bridge.md. One simulator per break, a
 * few requests each, three at a time.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BREAKABLE_RULE_IDS } from '../../simulator/src/broken-rules/breakable-rules.js';
import { RULES_TRAFFIC_CANNOT_SHOW } from '../src/checks/unseen-rules.js';
import { BREAK_SCENES, SANDBOX_BREAKS } from '../test-support/break-scenes.js';
import { recordInThread } from '../test-support/recorded-run.js';
import { runSampleTraffic } from '../test-support/sample-traffic.js';

const PARALLEL = 3;
const DOCS = readFileSync(resolve(import.meta.dirname, '../../docs/bridge.md'), 'utf8');

/** The rules the breaks name, in the order the matrix ran them. */
async function namedBy(rule: string): Promise<Set<string>> {
  const run = await recordInThread(
    { brokenRules: [rule], ...(SANDBOX_BREAKS.has(rule) && { environment: 'sandbox' as const }) },
    (client, simulator) =>
      runSampleTraffic(
        client,
        [simulator.keys[0]!, simulator.keys[1] ?? simulator.keys[0]!],
        BREAK_SCENES[rule],
      ),
  );
  return new Set(run.findings.map((finding) => finding.rule).filter((id): id is string => id !== undefined));
}

describe('the break matrix through the recording proxy', () => {
  it('every break the traffic can show is named by its rule ID; the others are documented', {
    timeout: 240_000,
  }, async () => {
    const shown = BREAKABLE_RULE_IDS.filter((rule) => !(rule in RULES_TRAFFIC_CANNOT_SHOW));
    expect(
      shown.filter((rule) => BREAK_SCENES[rule] === undefined),
      'breaks without a scene',
    ).toEqual([]);
    const missed: string[] = [];
    const queue = [...shown];
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        for (let rule = queue.shift(); rule !== undefined; rule = queue.shift()) {
          const named = await namedBy(rule);
          if (!named.has(rule)) missed.push(`${rule} (named: ${[...named].join(', ') || 'nothing'})`);
        }
      }),
    );
    expect(missed).toEqual([]);
  });

  it('the rules passing traffic cannot show are breakable ones, without a scene, and docs/bridge.md gives each reason', () => {
    for (const [rule, reason] of Object.entries(RULES_TRAFFIC_CANNOT_SHOW)) {
      expect(BREAKABLE_RULE_IDS, rule).toContain(rule);
      expect(BREAK_SCENES[rule], rule).toBeUndefined();
      expect(DOCS, `docs/bridge.md lists ${rule}`).toContain(`| \`${rule}\` | ${reason} |`);
    }
  });
});
