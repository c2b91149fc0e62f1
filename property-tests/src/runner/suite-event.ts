/**
 * What a run of the suite tells its caller as it goes (the core emits, the caller prints): apart from
 * the run itself, so that the scheduler that emits them and the progress that prints them need not
 * import the run.
 */
import type { Rule } from '../rules/rule.js';
import type { Capabilities } from '../target/capabilities.js';
import type { RuleResult } from './run-rule.js';

export type SuiteEvent =
  | {
      type: 'suite:start';
      baseUrl: string;
      seed: number;
      capabilities: Capabilities;
      /** What the run did with the tenant (tenancy.ts), null without the control API. */
      tenancy: string | null;
    }
  | { type: 'rule:start'; rule: Rule; index: number; total: number }
  | { type: 'rule:run'; rule: Rule; runsDone: number }
  | { type: 'rule:end'; result: RuleResult; index: number; total: number };
