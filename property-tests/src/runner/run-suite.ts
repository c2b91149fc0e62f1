/**
 * Runs the selected rules against one target: detects its capabilities, claims its tenant (reset only
 * when nothing is lost, suite-context.ts), leaves out the rules outside the run's scope of operations,
 * runs each rule with its own seed, then settles the verdicts on the whole run's evidence: what the
 * target does not implement (not-implemented.ts) and the SCHEMA rows' success answers
 * (schema-evidence.ts). Emits events; the CLI decides what to print (the core emits, the caller prints).
 */

import { type ApiDocument, loadApiDocument } from '../../../openapi/document/api-document.js';
import { createHttpClient, type Exchange, type HttpClient } from '../http/http-client.js';
import type { Rule, SuiteContext } from '../rules/rule.js';
import type { Capabilities } from '../target/capabilities.js';
import { emptyListsIn } from '../target/environment.js';
import type { TargetConfig } from '../target/target-config.js';
import type { Environment } from '../target/target-types.js';
import { type Coverage, type CoverageRecorder, createCoverageRecorder } from './coverage.js';
import { notImplementedOperations, settleNotImplemented } from './not-implemented.js';
import { runRules } from './rule-schedule.js';
import { type RuleResult, type RuleRunOptions, runRule } from './run-rule.js';
import { settleSchemaRows } from './schema-evidence.js';
import { ruleInScope, scopedOperations } from './scope.js';
import { buildContext } from './suite-context.js';
import type { SuiteEvent } from './suite-event.js';

/** Random runs per rule when neither `--runs` nor the rule says otherwise. */
export const DEFAULT_RUNS = 20;

export type { SuiteEvent } from './suite-event.js';

export interface SuiteOptions {
  config: TargetConfig;
  /** The rules to run, in order (already selected by `--rules`; those outside the scope are left out). */
  rules: readonly Rule[];
  seed: number;
  /** Random runs of every rule (`--runs`); default each rule's own, else DEFAULT_RUNS. */
  runs?: number;
  /** fast-check replay path (with a single rule). */
  path?: string;
  document?: ApiDocument;
  /** `--strict`: undocumented response members fail the shape rows. */
  strict?: boolean;
  /** `--reset`: reset the tenant before the run even when it holds state the run did not create. */
  reset?: boolean;
  onEvent?: (event: SuiteEvent) => void;
}

/** The operations the run checked, and the rules it left out for needing others. */
export interface RunScope {
  operations: number;
  /** The document's operations. */
  of: number;
  /** Where the scope was narrowed (`--operations`, `operations.include`), null: every operation. */
  includeFrom: string | null;
  /** Rules selected but not run: they need operations outside the scope. */
  outOfScope: string[];
}

export interface SuiteResult {
  baseUrl: string;
  seed: number;
  runs: number | null;
  startedAt: string;
  durationMs: number;
  capabilities: Capabilities;
  /** The target's environment (configured, or named by GET /api/). */
  environment: Environment;
  /** `--strict`: an inconclusive rule fails the run. */
  strict: boolean;
  /**
   * Every rule run's verdict; a SCHEMA row passes only when its operation answered a success status
   * during the run (schema-evidence.ts), a rule needing an operation not implemented is inconclusive.
   */
  results: RuleResult[];
  /** Which documented statuses each operation exhibited with a valid body. */
  coverage: Coverage;
  scope: RunScope;
  /** What the run did with the tenant (tenancy.ts), null without the control API. */
  tenancy: string | null;
  /** Where each link registration came from (kind -> words). */
  registrations: Readonly<Record<string, string>>;
  /** `METHOD path` of every operation not implemented (only 404, 405 or 501, never a success). */
  notImplemented: string[];
  /** Set when the run stopped asking the target (it stopped answering): the rules after it did not run. */
  stopped?: string;
}

/** Watches the client's answers for a link registered (a 201 of POST /api/links/, a 200 of its resume). */
function linkWatch() {
  const watch = {
    registered: false,
    observe(method: string, url: string, response: { status: number }) {
      const path = new URL(url, 'http://target').pathname;
      if (path !== '/api/links/') return;
      if ((method === 'POST' && response.status === 201) || (method === 'PATCH' && response.status === 200))
        watch.registered = true;
    },
  };
  return watch;
}

interface Settling {
  suite: SuiteContext;
  client: HttpClient;
  coverage: CoverageRecorder;
  runOptions: (rule: Rule) => Omit<RuleRunOptions, 'onRun'>;
}

/**
 * The verdicts on the whole run's evidence: what the target does not implement (a SCHEMA row that ran
 * judges an operation on one record), each failure's operation (its signature, report/baseline.ts).
 */
async function settleVerdicts(rules: readonly Rule[], results: RuleResult[], run: Settling) {
  const { suite, coverage } = run;
  const rowsRun = new Set(
    rules.flatMap((rule) => (rule.operationId === undefined ? [] : [rule.operationId])),
  );
  const notImplemented = notImplementedOperations(coverage.report(suite.unavailable), rowsRun);
  const operationsOf = (exchange: Exchange) =>
    coverage.operationsOf(exchange.request.method, exchange.request.url);
  const settled = await settleNotImplemented(results, new Map(rules.map((rule) => [rule.id, rule])), {
    notImplemented,
    operations: suite.operations,
    touched: (result) => (result.failure?.exchanges ?? []).flatMap(operationsOf),
    rerun: (rule, left) => runRule(rule, { ...suite, operations: left }, run.client, run.runOptions(rule)),
  });
  const located = settled.map((result) => {
    const { failure } = result;
    const last = failure?.exchanges.at(-1);
    const operation = result.operationId ?? (last && operationsOf(last)[0]);
    return failure && operation ? { ...result, failure: { ...failure, operation } } : result;
  });
  return { located, notImplemented: [...notImplemented.values()] };
}

/** The run's scope, for the report. */
function scopeOf(
  options: SuiteOptions,
  document: ApiDocument,
  run: readonly Rule[],
  operations: number,
): RunScope {
  const { include, exclude, includeFrom } = options.config.operations;
  return {
    operations,
    of: document.operations.length,
    includeFrom: include.length > 0 ? includeFrom : exclude.length > 0 ? 'operations.exclude' : null,
    outOfScope: options.rules.filter((rule) => !run.includes(rule)).map((rule) => rule.id),
  };
}

export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const startedAt = new Date();
  const started = performance.now();
  const document = options.document ?? loadApiDocument();
  const { include, exclude } = options.config.operations;
  const operations = scopedOperations(document.operations, include, exclude);
  const coverage = createCoverageRecorder(document, operations);
  const links = linkWatch();
  const client = createHttpClient(options.config, (method, url, response) => {
    coverage.observe(method, url, response);
    links.observe(method, url, response);
  });
  try {
    const { suite, tenancy, registrations } = await buildContext(options.config, document, client, {
      strict: options.strict ?? false,
      reset: options.reset ?? false,
    });
    const emit = options.onEvent ?? (() => undefined);
    const { baseUrl } = options.config;
    const { capabilities } = suite;
    emit({ type: 'suite:start', baseUrl, seed: options.seed, capabilities, tenancy: tenancy?.note ?? null });
    const rules = options.rules.filter((rule) => ruleInScope(rule, operations));
    const runOptions = (rule: Rule) => ({
      seed: options.seed,
      runs: options.runs ?? rule.runs ?? DEFAULT_RUNS,
      ...(options.path ? { path: options.path } : {}),
    });
    const results = await runRules(rules, {
      ...{ suite, client, tenancy, runOptions, emit },
      linksSinceReset: () => links.registered,
      reset: async () => {
        await suite.http.request({ method: 'POST', url: '/_ofkit/reset/' });
        links.registered = false;
      },
    });
    const settled = await settleVerdicts(rules, results, { suite, client, coverage, runOptions });
    const covered = coverage.report(suite.unavailable);
    return {
      ...{ baseUrl, seed: options.seed, runs: options.runs ?? null, startedAt: startedAt.toISOString() },
      durationMs: Math.round(performance.now() - started),
      ...{ capabilities, environment: suite.environment, strict: suite.strict },
      results: settleSchemaRows(settled.located, covered, emptyListsIn(document, suite.environment)),
      coverage: covered,
      scope: scopeOf(options, document, rules, operations.length),
      tenancy: tenancy?.note ?? null,
      registrations: registrations.sources,
      notImplemented: settled.notImplemented,
      ...(client.stopped() && { stopped: client.stopped() }),
    };
  } finally {
    await client.close();
  }
}
