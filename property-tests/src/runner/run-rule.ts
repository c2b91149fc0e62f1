/**
 * Runs one rule: capabilities, set-up, then fast-check with the rule's seed. Every run gets its own
 * recording session; the exchanges of the last failing run, which is the shrunk counterexample, are
 * kept for the curl reproduction.
 */
import fc from 'fast-check';
import type { Exchange, HttpClient } from '../http/http-client.js';
import {
  type PreparedRule,
  type Rule,
  type RunContext,
  type SuiteContext,
  Unmet,
  Violation,
} from '../rules/rule.js';
import { ruleSeed } from './seed.js';
import { setUpRule } from './set-up-rule.js';

/**
 * `inconclusive`: no run exercised what the rule asserts (every run ended on a precondition, or a
 * SCHEMA row's operation never answered a success status); `skipped (environment)`: the interface spec
 * documents what the rule needs as unavailable in the target's environment.
 */
export type RuleStatus = 'passed' | 'failed' | 'skipped' | 'skipped (environment)' | 'inconclusive';

/** Every status, in the order reports count them. */
export const RULE_STATUSES: readonly RuleStatus[] = [
  'passed',
  'failed',
  'inconclusive',
  'skipped',
  'skipped (environment)',
];

export interface RuleFailure {
  message: string;
  /** The seed fast-check used for this rule, and the path to the counterexample (fast-check replay). */
  seed: number;
  path: string | null;
  counterexample: unknown;
  shrinks: number;
  /** The requests of the shrunk counterexample, credentials masked. */
  exchanges: Exchange[];
  /** The operation of the failing request (the counterexample's last; a SCHEMA row's own), when known. */
  operation?: string;
}

export interface RuleResult {
  id: string;
  title: string;
  area: string;
  /** SCHEMA rows: the operation (its coverage is the row's evidence). */
  operationId?: string;
  status: RuleStatus;
  runs: number;
  durationMs: number;
  /** Runs that reached the rule's assertion (the rest ended on a precondition, `unmet`). */
  reached: number;
  /** Why it was skipped, or why it is inconclusive (no run reached its assertion). */
  reason?: string;
  /** What the rule could not set up or left out. */
  notes: string[];
  failure?: RuleFailure;
}

export interface RuleRunOptions {
  seed: number;
  /** Random runs (examples come on top). */
  runs: number;
  /** fast-check replay path of a previous failure. */
  path?: string;
  onRun?: (runsDone: number) => void;
}

/** Most shrink candidates tried per failure: every candidate is a round of HTTP requests. */
const MAX_SHRINKS = 200;

/** "Never a 5xx": a 5xx is no conforming answer to any request. */
function first5xx(exchanges: Exchange[]): Exchange | undefined {
  return exchanges.find((exchange) => exchange.response.status >= 500);
}

function base(rule: Rule): Omit<RuleResult, 'status' | 'runs' | 'durationMs'> {
  return {
    id: rule.id,
    title: rule.title,
    area: rule.area,
    ...(rule.operationId === undefined ? {} : { operationId: rule.operationId }),
    reached: 0,
    notes: [],
  };
}

/** A rule left out because the run had to stop before it (`reason` says why). */
export function notRunResult(rule: Rule, reason: string): RuleResult {
  return { ...base(rule), status: 'skipped', runs: 0, durationMs: 0, reason: `not run: ${reason}` };
}

/** Runs that reached the assertion, and why the others did not (reason -> runs). */
interface Reach {
  reached: number;
  unmet: Map<string, number>;
}

interface LastFailure {
  exchanges: Exchange[];
  error: unknown;
}

/** The fast-check property of a prepared rule: a recording session per run, and the 5xx guard. */
function propertyOf(
  rule: Rule,
  prepared: PreparedRule,
  suite: SuiteContext,
  client: HttpClient,
  options: RuleRunOptions,
  onFailure: (failure: LastFailure) => void,
  reach: Reach,
) {
  let runsDone = 0;
  return fc.asyncProperty(fc.limitShrink(prepared.arbitrary, MAX_SHRINKS), async (input) => {
    const session = client.session();
    runsDone += 1;
    options.onRun?.(runsDone);
    try {
      let ended: Unmet | undefined;
      try {
        await prepared.check(input, { ...suite, http: session } satisfies RunContext);
      } catch (error) {
        if (!(error instanceof Unmet)) throw error;
        ended = error;
      }
      if (ended) reach.unmet.set(ended.message, (reach.unmet.get(ended.message) ?? 0) + 1);
      else reach.reached += 1;
      const fivexx = rule.allows5xx ? undefined : first5xx(session.exchanges);
      if (fivexx) {
        const { method, url } = fivexx.request;
        throw new Violation(`never a 5xx: ${method} ${url} answered ${fivexx.response.status}`);
      }
    } catch (error) {
      // The last failing run is the shrunk counterexample: its exchanges are the reproduction.
      onFailure({ exchanges: [...session.exchanges], error });
      throw error;
    }
  });
}

/** A failed set-up: what it asked for (the set-up session's exchanges) and why it failed. */
const setUpFailure = (message: string, exchanges: Exchange[]): RuleFailure => ({
  message,
  seed: 0,
  path: null,
  counterexample: null,
  shrinks: 0,
  exchanges,
});

function describeError(error: unknown): string {
  return error instanceof Violation ? error.message : `error: ${(error as Error)?.message ?? String(error)}`;
}

/** The most frequent reason the runs ended before the assertion. */
function inconclusiveReason(reach: Reach): string {
  const [reason, runs] = [...reach.unmet].sort((a, b) => b[1] - a[1])[0] ?? ['no run reached it', 0];
  return `no run reached the assertion: ${reason}${runs > 0 ? ` (${runs} runs)` : ''}`;
}

export async function runRule(
  rule: Rule,
  suite: SuiteContext,
  client: HttpClient,
  options: RuleRunOptions,
): Promise<RuleResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const prepared = await setUpRule(rule, suite, client);
  if ('status' in prepared) {
    const { message, exchanges, ...ended } = prepared;
    const failure = message === undefined ? {} : { failure: setUpFailure(message, exchanges) };
    return { ...base(rule), ...ended, runs: 0, durationMs: elapsed(), ...failure };
  }
  const seed = ruleSeed(options.seed, rule.id);
  let last: LastFailure | undefined;
  const reach: Reach = { reached: 0, unmet: new Map() };
  const property = propertyOf(
    rule,
    prepared,
    suite,
    client,
    options,
    (failure) => {
      last = failure;
    },
    reach,
  );
  let details: fc.RunDetails<[unknown]>;
  try {
    details = await fc.check(property, {
      seed,
      numRuns: options.runs + prepared.examples.length,
      examples: prepared.examples.map((example) => [example]),
      ...(options.path ? { path: options.path } : {}),
    });
  } catch (error) {
    // fast-check refuses a replay path that does not fit (e.g. a command sequence's): a failed rule with
    // the reason, never a crashed suite.
    const failure = { seed, path: options.path ?? null, counterexample: null, shrinks: 0, exchanges: [] };
    const message = `fast-check could not run: ${describeError(error)}`;
    return {
      ...base(rule),
      status: 'failed',
      runs: 0,
      durationMs: elapsed(),
      failure: { ...failure, message },
    };
  }
  const result = {
    ...base(rule),
    notes: prepared.notes(),
    runs: details.numRuns,
    reached: reach.reached,
    durationMs: elapsed(),
  };
  if (!details.failed && reach.reached === 0 && details.numRuns > 0) {
    return { ...result, status: 'inconclusive', reason: inconclusiveReason(reach) };
  }
  if (!details.failed) return { ...result, status: 'passed' };
  return {
    ...result,
    status: 'failed',
    failure: {
      message: describeError(last?.error ?? details.errorInstance),
      seed,
      path: details.counterexamplePath,
      counterexample: details.counterexample?.[0] ?? null,
      shrinks: details.numShrinks,
      exchanges: last?.exchanges ?? [],
    },
  };
}
