/**
 * Runs the selected rules one after the other against one target: detects its capabilities, resets it
 * through the control API when it has one, then runs each rule with its own seed. Emits events; the
 * CLI decides what to print (the core emits, the caller prints).
 */

import { type ApiDocument, loadApiDocument } from '../../../openapi/document/api-document.js';
import { createSchemaArbitraries } from '../arbitraries/schema-arbitrary.js';
import { createHttpClient } from '../http/http-client.js';
import type { Rule, SuiteContext } from '../rules/rule.js';
import { type Capabilities, detectCapabilities } from '../target/capabilities.js';
import { emptyListsIn, unavailableOperations } from '../target/environment.js';
import { createFixtures } from '../target/fixtures.js';
import type { TargetConfig } from '../target/target-config.js';
import type { Environment } from '../target/target-types.js';
import { type Coverage, createCoverageRecorder } from './coverage.js';
import { notRunResult, type RuleResult, runRule } from './run-rule.js';
import { settleSchemaRows } from './schema-evidence.js';
import { matchesRules } from './select-rules.js';

/** Random runs per rule when neither `--runs` nor the rule says otherwise. */
export const DEFAULT_RUNS = 20;

export type SuiteEvent =
  | { type: 'suite:start'; baseUrl: string; seed: number; capabilities: Capabilities }
  | { type: 'rule:start'; rule: Rule; index: number; total: number }
  | { type: 'rule:run'; rule: Rule; runsDone: number }
  | { type: 'rule:end'; result: RuleResult; index: number; total: number };

export interface SuiteOptions {
  config: TargetConfig;
  /** The rules to run, in order (already selected). */
  rules: readonly Rule[];
  seed: number;
  /** Random runs of every rule (`--runs`); default each rule's own, else DEFAULT_RUNS. */
  runs?: number;
  /** fast-check replay path (with a single rule). */
  path?: string;
  document?: ApiDocument;
  /** `--strict`: undocumented response members fail the shape rows. */
  strict?: boolean;
  onEvent?: (event: SuiteEvent) => void;
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
   * Every selected rule's verdict; a SCHEMA row passes only when its operation answered a success
   * status during the run (schema-evidence.ts).
   */
  results: RuleResult[];
  /** Which documented statuses each operation exhibited with a valid body. */
  coverage: Coverage;
  /** Set when the run stopped asking the target (it stopped answering): the rules after it did not run. */
  stopped?: string;
}

function includedOperations(document: ApiDocument, exclude: readonly string[]) {
  return document.operations.filter(
    (operation) => exclude.length === 0 || !matchesRules(operation.operationId, exclude),
  );
}

async function buildContext(
  options: SuiteOptions,
  document: ApiDocument,
  client: ReturnType<typeof createHttpClient>,
) {
  const capabilities = await detectCapabilities(client, options.config);
  const http = client.session();
  if (capabilities.controlApi && options.config.resetBeforeRun) {
    await http.request({ method: 'POST', url: '/_ofkit/reset/' });
  }
  const suite: SuiteContext = {
    config: options.config,
    capabilities,
    document,
    schemas: createSchemaArbitraries({ resolve: document.resolve, ajv: document.ajv }),
    operations: includedOperations(document, options.config.operations.exclude),
    environment: capabilities.environment,
    unavailable: unavailableOperations(document, capabilities.environment),
    fixtures: createFixtures(options.config, http),
    http,
    strict: options.strict ?? false,
  };
  return suite;
}

export async function runSuite(options: SuiteOptions): Promise<SuiteResult> {
  const startedAt = new Date();
  const started = performance.now();
  const document = options.document ?? loadApiDocument();
  const coverage = createCoverageRecorder(
    document,
    includedOperations(document, options.config.operations.exclude),
  );
  const client = createHttpClient(options.config, coverage.observe);
  try {
    const suite = await buildContext(options, document, client);
    const emit = options.onEvent ?? (() => undefined);
    emit({
      type: 'suite:start',
      baseUrl: options.config.baseUrl,
      seed: options.seed,
      capabilities: suite.capabilities,
    });
    const results: RuleResult[] = [];
    const total = options.rules.length;
    for (const [index, rule] of options.rules.entries()) {
      emit({ type: 'rule:start', rule, index, total });
      const stopped = client.stopped();
      const result = stopped
        ? notRunResult(rule, `the target stopped answering (${stopped})`)
        : await runRule(rule, suite, client, {
            seed: options.seed,
            runs: options.runs ?? rule.runs ?? DEFAULT_RUNS,
            ...(options.path ? { path: options.path } : {}),
            onRun: (runsDone) => emit({ type: 'rule:run', rule, runsDone }),
          });
      results.push(result);
      emit({ type: 'rule:end', result, index, total });
    }
    const covered = coverage.report(suite.unavailable);
    return {
      baseUrl: options.config.baseUrl,
      seed: options.seed,
      runs: options.runs ?? null,
      startedAt: startedAt.toISOString(),
      durationMs: Math.round(performance.now() - started),
      capabilities: suite.capabilities,
      environment: suite.environment,
      strict: suite.strict,
      results: settleSchemaRows(results, covered, emptyListsIn(document, suite.environment)),
      coverage: covered,
      ...(client.stopped() && { stopped: client.stopped() }),
    };
  } finally {
    await client.close();
  }
}
