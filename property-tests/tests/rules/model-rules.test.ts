/**
 * MODEL-LINK-LIFECYCLE against the real simulator over HTTP: it holds for the intact simulator (with and
 * without its control API), and fails one broken on purpose with a short shrunk command sequence, printed
 * as curl commands, that fast-check's replayPath replays in one run.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import { toCurlScript } from '../../src/report/curl-commands.js';
import { modelLinkLifecycle, modelRules } from '../../src/rules/model/index.js';
import type { ModelRun } from '../../src/rules/model/model-commands.js';
import { setupAdvanceMs } from '../../src/rules/model/run-setup.js';
import type { Rule } from '../../src/rules/rule.js';
import type { RuleResult } from '../../src/runner/run-rule.js';
import { runSuite } from '../../src/runner/run-suite.js';
import { parseTargetConfig } from '../../src/target/target-config.js';
import { type SimulatorTarget, startSimulatorTarget } from '../simulator-target.js';

const SEED = 20261102;
const document = loadApiDocument();
const targets: SimulatorTarget[] = [];

afterEach(async () => {
  await Promise.all(targets.splice(0).map((target) => target.stop()));
});

/** The simulator on 127.0.0.1, port 0, at a fixed real time, with the rules to break. */
async function startSimulator(brokenRules: readonly string[] = []): Promise<string> {
  const target = await startSimulatorTarget(brokenRules);
  targets.push(target);
  return target.baseUrl;
}

interface RunOptions {
  broken?: readonly string[];
  runs: number;
  rules?: readonly Rule[];
  controlApi?: 'detect' | 'off';
  path?: string;
  /** operationIds the config says the target does not implement. */
  exclude?: string[];
}

async function runModel(options: RunOptions): Promise<RuleResult> {
  return (await runModelSuite(options)).results[0]!;
}

async function runModelSuite(options: RunOptions) {
  const baseUrl = await startSimulator(options.broken);
  const file = {
    controlApi: options.controlApi ?? 'detect',
    ...(options.exclude && { operations: { exclude: options.exclude } }),
  };
  const config = parseTargetConfig({ baseUrl, file });
  const rules = options.rules ?? modelRules;
  const { path, runs } = options;
  return runSuite({ config, rules, seed: SEED, runs, document, ...(path ? { path } : {}) });
}

/** The shrunk counterexample as ModelRun's JSON: the commands that ran and their replayPath. */
const shrunk = (result: RuleResult) =>
  JSON.parse(JSON.stringify(result.failure?.counterexample)) as ReturnType<ModelRun['ran']>;

describe('setupAdvanceMs', () => {
  const at = (time: string) => Date.parse(`2026-11-02T${time}Z`);
  const DAILY = 6 * 3_600_000;

  it('moves a run a minute on, past the deletion window, far from any day boundary', () => {
    expect(setupAdvanceMs(at('12:00:00'), DAILY)).toBe(61_000);
  });

  it('moves it past a boundary a run could reach: midnight UTC, then GMT-3, then the daily refresh', () => {
    expect(at('22:30:00') + setupAdvanceMs(at('22:30:00'), DAILY)).toBe(Date.parse('2026-11-03T00:00:01Z'));
    expect(at('01:30:00') + setupAdvanceMs(at('01:30:00'), DAILY)).toBe(at('03:00:01'));
    expect(at('04:30:00') + setupAdvanceMs(at('04:30:00'), DAILY)).toBe(at('06:00:01'));
    expect(at('04:30:00') + setupAdvanceMs(at('04:30:00'), null)).toBe(at('04:31:01'));
  });
});

describe('MODEL-LINK-LIFECYCLE', () => {
  it('holds for the simulator, with a frozen clock', { timeout: 20_000 }, async () => {
    const result = await runModel({ runs: 40 });
    expect(result.failure?.message).toBeUndefined();
    expect(result.status).toBe('passed');
    // The runs reached the cooldown and the deletion limit, not only the happy paths.
    expect(result.notes.join('\n')).toMatch(/RefreshLink 202x\d+ 409x\d+/);
    expect(result.notes.join('\n')).toMatch(/DeleteLink 204x\d+ 429x\d+/);
  });

  it('holds for the simulator without its control API, and says what it leaves out', {
    timeout: 20_000,
  }, async () => {
    const result = await runModel({ runs: 10, controlApi: 'off' });
    expect(result.failure?.message).toBeUndefined();
    expect(result.status).toBe('passed');
    expect(result.notes[0]).toMatch(/no control API: .* without AdvanceClock/);
  });

  it('is not run, and counted out of scope, where the config leaves out operations its commands send', async () => {
    const suite = await runModelSuite({ runs: 5, exclude: ['deleteAccount', 'getTransaction'] });
    expect(suite.results).toEqual([]);
    expect(suite.scope).toMatchObject({ operations: 145, outOfScope: ['MODEL-LINK-LIFECYCLE'] });
  });

  it('fails a simulator without LINK-REFRESH-COOLDOWN with three commands, as curl', {
    timeout: 20_000,
  }, async () => {
    const result = await runModel({ broken: ['LINK-REFRESH-COOLDOWN'], runs: 40 });
    expect(result.status).toBe('failed');
    expect(result.failure?.message).toMatch(/LINK-REFRESH-COOLDOWN: wanted 409, got 202/);
    const { commands } = shrunk(result);
    expect(commands.length).toBeLessThanOrEqual(4);
    expect(commands).toEqual(['RegisterLink(plain)', 'RefreshLink(link 0)', 'RefreshLink(link 0)']);
    const curl = toCurlScript(result.failure?.exchanges ?? []);
    // The run's clock set-up, the registration and the two refreshes, credentials masked.
    expect(curl.match(/\/refresh\/'/g)).toHaveLength(2);
    expect(curl).toContain('/_ofkit/clock/freeze/');
    expect(curl).toContain('-u "$OFKIT_KEY:$OFKIT_SECRET"');
    expect(curl).not.toContain('ofkit-secret-a');
  });

  it('fails a simulator without DELETE-RATE-LIMIT on the 6th deletion; the replayPath replays it', {
    timeout: 40_000,
  }, async () => {
    const result = await runModel({ broken: ['DELETE-RATE-LIMIT'], runs: 40 });
    expect(result.status).toBe('failed');
    expect(result.failure?.message).toMatch(
      /after 5 deletion\(s\) .* DELETE-RATE-LIMIT: wanted 429, got 204/,
    );
    const { commands, replayPath } = shrunk(result);
    // Six registrations and six deletions is the shortest such sequence.
    expect(commands.filter((command) => command.startsWith('DeleteLink'))).toHaveLength(6);
    expect(commands.length).toBeLessThanOrEqual(15);
    expect(toCurlScript(result.failure?.exchanges ?? []).match(/-X DELETE/g)).toHaveLength(6);

    // fast-check's path alone cannot replay a command sequence; with the replayPath one run does.
    const replay = await runModel({
      broken: ['DELETE-RATE-LIMIT'],
      runs: 40,
      rules: [modelLinkLifecycle({ replayPath: replayPath! })],
      path: result.failure!.path!,
    });
    expect(replay.status).toBe('failed');
    expect(replay.runs).toBe(1);
    expect(shrunk(replay).commands).toEqual(commands);
  });
});
