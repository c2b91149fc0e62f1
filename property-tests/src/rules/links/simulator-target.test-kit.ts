/**
 * For the links rules' tests only: the real simulator over HTTP on 127.0.0.1 (port 0), its real time
 * fixed so that the control API clock alone moves time, optionally broken on purpose (`brokenRules`).
 */
import type { Server } from 'node:http';
import { DEFAULT_KEYS } from '../../../../simulator/src/config/simulator-config.js';
import { createHttpServer, listen } from '../../../../simulator/src/server/http-adapter.js';
import { createSimulator } from '../../../../simulator/src/simulator.js';
import type { ApiDocument } from '../../document/api-document.js';
import type { RuleResult } from '../../runner/run-rule.js';
import { runSuite } from '../../runner/run-suite.js';
import { parseTargetConfig } from '../../target/target-config.js';
import type { Rule } from '../rule.js';

const FIXED_NOW = Date.parse('2026-11-02T12:00:00.000Z');

export interface SimulatorTarget {
  baseUrl: string;
  stop(): Promise<void>;
}

export async function startSimulatorTarget(brokenRules: readonly string[] = []): Promise<SimulatorTarget> {
  const simulator = await createSimulator({
    seed: 'links-rules',
    environment: 'production',
    keys: DEFAULT_KEYS,
    realTime: () => FIXED_NOW,
    brokenRules,
  });
  const server: Server = createHttpServer({ handle: simulator.handle, maxBodyBytes: 1_048_576 });
  const baseUrl = await listen(server, 0, '127.0.0.1');
  return {
    baseUrl,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await simulator.webhooks.close();
    },
  };
}

/** Runs `rules` against the target with the default config (which fits the simulator). */
export async function runRules(
  target: SimulatorTarget,
  rules: readonly Rule[],
  options: { seed: number; runs: number; document: ApiDocument },
): Promise<RuleResult[]> {
  const config = parseTargetConfig({ baseUrl: target.baseUrl });
  return (await runSuite({ config, rules, ...options })).results;
}

/** `ID: status (why)`, so that a failing expectation says which rule did what. */
export const outcome = (result: RuleResult) =>
  `${result.id}: ${result.status}${result.failure ? ` (${result.failure.message})` : ''}${result.reason ? ` (${result.reason})` : ''}`;
