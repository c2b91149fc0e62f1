/**
 * The webhooks-area rules against the reference implementation over real HTTP, delivering to the suite's
 * own receiver: every rule passes the intact simulator, and a simulator broken on WEBHOOK-BEARER (no
 * Authorization header on deliveries) fails exactly that rule, with a reproduction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiDocument } from '../../../openapi/document/api-document.js';
import { webhookRules } from '../../src/rules/webhooks/index.js';
import { closeWebhookReceiver } from '../../src/rules/webhooks/webhook-receiver.js';
import type { RuleResult } from '../../src/runner/run-rule.js';
import { outcome, runRules, type SimulatorTarget, startSimulatorTarget } from '../simulator-target.js';

const SEED = 20261102;
const BROKEN = ['WEBHOOK-BEARER'];
const document = loadApiDocument();
const targets: SimulatorTarget[] = [];

let intact: RuleResult[];
let broken: RuleResult[];

beforeAll(async () => {
  const [whole, breaking] = await Promise.all([startSimulatorTarget(), startSimulatorTarget(BROKEN)]);
  targets.push(whole, breaking);
  // Each rule's own `runs` (2-5, events are expensive); the two targets in parallel (separate channels).
  [intact, broken] = await Promise.all([
    runRules(whole, webhookRules, { seed: SEED, document }),
    runRules(breaking, webhookRules, { seed: SEED, document }),
  ]);
}, 180_000); // a busy 2-core machine: the runs themselves are bounded by their `runs`

afterAll(async () => {
  await Promise.all(targets.map((target) => target.stop()));
  await closeWebhookReceiver();
});

describe('the webhooks rules', () => {
  it('are one rule per ID, in the catalogue order, each needing the control API', () => {
    expect(webhookRules.map((rule) => rule.id)).toEqual([
      'LINK-ACCESS-MODE-UP',
      'LINK-ACCESS-MODE-DOWN',
      'LINK-PATCH-NO-UPDATE',
      'LINK-INVALID-CREDENTIALS',
      'LINK-TOKEN-REQUIRED',
      'WEBHOOK-SHAPE',
      'WEBHOOK-BEARER',
      'WEBHOOK-RETRY',
      'WEBHOOK-RECURRENT-ONLY',
      'WEBHOOK-SANDBOX',
      'WEBHOOK-HISTORICAL',
      'WEBHOOK-DAILY',
      'WEBHOOK-FOLLOW-UP',
    ]);
    for (const rule of webhookRules) {
      expect(rule.title.startsWith(`${rule.id}: `)).toBe(true);
      expect(rule.needs).toEqual(['control-api']);
      expect(rule.runs).toBeGreaterThanOrEqual(2);
      expect(rule.runs).toBeLessThanOrEqual(5);
    }
  });

  it('all pass against the simulator', () => {
    expect(intact.map(outcome)).toEqual(webhookRules.map((rule) => `${rule.id}: passed`));
  });

  it('fail exactly WEBHOOK-BEARER against a simulator dropping the bearer token, with a reproduction', () => {
    const failed = broken.filter((result) => result.status === 'failed');
    expect(failed.map((result) => result.id)).toEqual(BROKEN);
    expect(broken.filter((result) => result.status === 'skipped').map(outcome)).toEqual([]);
    const [bearer] = failed;
    expect(bearer?.failure?.message).toMatch(/came with no Authorization header; wanted "Bearer .+"/);
    expect(bearer?.failure?.exchanges.some((e) => e.request.url.endsWith('/_ofkit/webhooks/'))).toBe(true);
  });
});
