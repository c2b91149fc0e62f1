/**
 * The order and company in which rules run; their results come back in report order, each rule with
 * its own seed. Independent rules run side by side (the target answers one while the suite checks
 * another), never two that could disturb each other:
 *
 * - a rule that changes the whole tenant through the control API (`tenantWide`: its clock, scenarios,
 *   faults, webhook receiver) runs alone, so no two rules ever move one tenant's clock at once; one that
 *   moves the clock starts, where the run owns the tenant (tenancy.ts), from a tenant without the links
 *   earlier rules left, since every clock move runs the daily refresh of each link for each day passed;
 * - the SCHEMA rows run beside one another (each checks shapes only, whatever the others store);
 * - a rule that only provokes errors (`quiet`: it changes nothing and compares no list) runs beside any
 *   of the above but the tenant-wide ones;
 * - every other rule (it stores records, or compares lists another rule's records would change) runs
 *   beside quiet rules only.
 */
import type { HttpClient } from '../http/http-client.js';
import type { Rule, SuiteContext } from '../rules/rule.js';
import type { Tenancy } from '../target/tenancy.js';
import { notRunResult, type RuleResult, type RuleRunOptions, runRule } from './run-rule.js';
import type { SuiteEvent } from './suite-event.js';

/** Rules running at once (the suite and the target take turns on a few cores: more waits longer). */
export const SIDE_BY_SIDE = 3;

export interface Schedule {
  suite: SuiteContext;
  client: HttpClient;
  tenancy: Tenancy | null;
  runOptions: (rule: Rule) => Omit<RuleRunOptions, 'onRun'>;
  emit: (event: SuiteEvent) => void;
  /** Whether a link was registered since the tenant was last reset (the client's answers say). */
  linksSinceReset: () => boolean;
  /** Resets the tenant (POST /_ofkit/reset/) and starts counting links afresh. */
  reset: () => Promise<void>;
}

export type Lane = 'alone' | 'schema' | 'quiet' | 'state';

export const laneOf = (rule: Rule): Lane =>
  rule.tenantWide ? 'alone' : rule.area === 'schema' ? 'schema' : rule.quiet ? 'quiet' : 'state';

/** Whether a rule of lane `next` may start while rules of `running` run. */
export function fits(next: Lane, running: readonly Lane[]): boolean {
  if (running.length === 0) return true;
  if (running.length >= SIDE_BY_SIDE || next === 'alone' || running.includes('alone')) return false;
  if (next === 'quiet') return true;
  return running.every((lane) => lane === 'quiet' || (lane === 'schema' && next === 'schema'));
}

async function runOne(rule: Rule, index: number, total: number, schedule: Schedule): Promise<RuleResult> {
  const { suite, client, emit } = schedule;
  emit({ type: 'rule:start', rule, index, total });
  const stopped = client.stopped();
  if (!stopped && rule.tenantWide === 'clock' && schedule.tenancy?.resettable && schedule.linksSinceReset())
    await schedule.reset();
  const result = stopped
    ? notRunResult(rule, `the target stopped answering (${stopped})`)
    : await runRule(rule, suite, client, {
        ...schedule.runOptions(rule),
        onRun: (runsDone) => emit({ type: 'rule:run', rule, runsDone }),
      });
  emit({ type: 'rule:end', result, index, total });
  return result;
}

/** Runs `rules`, side by side where they fit; their results in the same order. */
export async function runRules(rules: readonly Rule[], schedule: Schedule): Promise<RuleResult[]> {
  const results: RuleResult[] = new Array(rules.length);
  const running = new Map<number, { lane: Lane; done: Promise<void> }>();
  for (const [index, rule] of rules.entries()) {
    const lane = laneOf(rule);
    while (
      !fits(
        lane,
        [...running.values()].map((entry) => entry.lane),
      )
    )
      await Promise.race([...running.values()].map((entry) => entry.done));
    const done = runOne(rule, index, rules.length, schedule).then((result) => {
      results[index] = result;
      running.delete(index);
    });
    running.set(index, { lane, done });
  }
  await Promise.all([...running.values()].map((entry) => entry.done));
  return results;
}
