/**
 * For the suite's own tests: the real simulator over HTTP on 127.0.0.1 (port 0), its real time fixed so
 * that only the control API clock moves time, optionally broken on purpose (`brokenRules`), and the
 * suite run against it. The suite itself imports nothing from the simulator.
 */

import type { ApiDocument } from '../../openapi/document/api-document.js';
import { startSimulator } from '../../simulator/src/start-simulator.js';
import type { Rule } from '../src/rules/rule.js';
import type { RuleResult } from '../src/runner/run-rule.js';
import { runSuite } from '../src/runner/run-suite.js';
import { parseTargetConfig } from '../src/target/target-config.js';

export const FIXED_NOW = Date.parse('2026-11-02T12:00:00.000Z');

export interface SimulatorTarget {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startSimulatorTarget(
  brokenRules: readonly string[] = [],
  environment: 'production' | 'sandbox' = 'production',
): Promise<SimulatorTarget> {
  // No ticker: the real time is fixed, only the control API moves the clock.
  const simulator = await startSimulator({
    seed: 'suite-tests',
    environment,
    realTime: () => FIXED_NOW,
    brokenRules,
    tickMs: 0,
  });
  return { baseUrl: simulator.url, stop: simulator.close };
}

/** Runs `rules` against the target with the default config (which fits the simulator). */
export async function runRules(
  target: SimulatorTarget,
  rules: readonly Rule[],
  options: { seed: number; runs?: number; document: ApiDocument },
): Promise<RuleResult[]> {
  const config = parseTargetConfig({ baseUrl: target.baseUrl });
  const suite = await runSuite({ config, rules, ...options });
  return suite.results;
}

/** `ID: status (message)`, so that a failing expectation says which rule did what. */
export const outcome = (result: RuleResult) =>
  `${result.id}: ${result.status}${result.failure ? ` (${result.failure.message})` : ''}${result.reason ? ` (${result.reason})` : ''}`;
