/**
 * The order and company in which rules run. Each rule runs with its own seed; a rule that changes the
 * whole tenant through the control API (`tenantWide`) runs alone. A rule that moves the tenant's clock
 * starts, where the run owns the tenant (tenancy.ts), from a tenant without the links earlier rules
 * left: every clock move runs the daily refresh of each recurrent link for each day passed, so a rule
 * would otherwise wait on the history of every rule before it. Results come back in report order.
 */
import type { HttpClient } from '../http/http-client.js';
import type { Rule, SuiteContext } from '../rules/rule.js';
import type { Tenancy } from '../target/tenancy.js';
import { notRunResult, type RuleResult, type RuleRunOptions, runRule } from './run-rule.js';
import type { SuiteEvent } from './run-suite.js';

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

/** Runs `rules`; their results in the same order. */
export async function runRules(rules: readonly Rule[], schedule: Schedule): Promise<RuleResult[]> {
  const results: RuleResult[] = [];
  for (const [index, rule] of rules.entries())
    results.push(await runOne(rule, index, rules.length, schedule));
  return results;
}
