/**
 * `ofkit check <base-url> [options]` (check-options.ts): the conformance suite against any
 * implementation. Everything the run needs is checked before it starts (options, config file, report
 * paths, rules, target, keys). Exit code 0 when no rule failed, 1 when one did (or coverage fell short,
 * or a rule was inconclusive under --strict), 2 on a usage or configuration error or refused keys.
 */
import { bundledApiDocument } from '../../openapi/document/api-document.js';
import { createHttpClient } from '../../property-tests/src/http/http-client.js';
import {
  allRules,
  createProgress,
  parseTargetConfig,
  type ReplayContext,
  type Rule,
  renderConsoleReport,
  renderJson,
  renderJunit,
  ruleInScope,
  runSuite,
  type SuiteResult,
  scopedOperations,
  selectRules,
  type TargetConfig,
} from '../../property-tests/src/index.js';
import {
  type Baseline,
  compareWithBaseline,
  readBaseline,
  renderBaseline,
} from '../../property-tests/src/report/baseline.js';
import { keyValues } from '../../property-tests/src/report/key-exports.js';
import type { LocalSimulator } from '../../property-tests/src/report/replay-command.js';
import { coverageShortfalls } from '../../property-tests/src/runner/coverage.js';
import { refusedKey } from '../../property-tests/src/target/key-check.js';
import {
  CHECK_USAGE,
  type CheckOptions,
  commandLineKeys,
  parseCheckOptions,
  readConfigFile,
} from './check-options.js';
import { type Command, runGuarded, UsageError, unreachable, writeReport } from './command-line.js';
import { checkReportPaths } from './report-path.js';

/**
 * The bundled document the suite checks against, read once per process. Its schemas are not checked
 * against the JSON Schema meta-schema here (the simulator does not check them either): the repository's
 * tests compile every operation with that check on, and compiling the meta-schema cost each run 0.1 to
 * 0.4 s of CPU.
 */
const checkedDocument = () => bundledApiDocument('api', { checkSchemas: false });

/** `ofkit check ...`; resolves with the exit code. */
export function check(argv: string[]): Promise<number> {
  return runGuarded('check', async () => {
    const options = parseCheckOptions(argv);
    if (options.help) {
      console.log(CHECK_USAGE);
      return 0;
    }
    const rawFile = readConfigFile(options.configPath);
    const keys = commandLineKeys(options.keys, process.env);
    const config = parseTargetConfig({
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      file: rawFile,
      keys,
      env: process.env,
      receiver: options.receiver,
      ...(options.environment ? { environment: options.environment } : {}),
      ...(options.operations ? { operations: options.operations } : {}),
    });
    checkReportPaths('--report', options.reports);
    if (options.writeBaseline)
      checkReportPaths('--write-baseline', [{ kind: 'json', path: options.writeBaseline }]);
    const baseline = options.baseline ? readBaseline(options.baseline, options.strict) : undefined;
    const document = checkedDocument();
    const rules = selectRules(allRules(document), options.rules);
    if (rules.length === 0) throw new UsageError(`no rule matches --rules ${options.rules.join(' ')}`);
    const { include, exclude } = config.operations;
    const scope = scopedOperations(document.operations, include, exclude);
    if (scope.length === 0) throw new UsageError(`no operation matches --operations ${include.join(' ')}`);
    if (!rules.some((rule) => ruleInScope(rule, scope)))
      throw new UsageError(
        'no rule to run: the rules asked for need operations outside the scope (--operations)',
      );
    const context: ReplayContext = {
      baseUrl: config.baseUrl,
      seed: options.seed,
      runs: options.runs ?? null,
      ...(options.configPath ? { configPath: options.configPath } : {}),
      ...(options.environment ? { environment: options.environment } : {}),
      keysFromCommandLine: Math.min(options.keys?.length ?? 0, 2),
      keyValues: keyValues(config.keys, {
        primaryFromEnvironment: keys !== undefined && !options.keys?.length,
        ...(rawFile === undefined ? {} : { rawFile }),
      }),
    };
    return runChecks(options, config, rules, context, baseline);
  });
}

/** The command's run, in main.ts's command table. */
export const checkCommand: Command['run'] = check;

/** The target can be reached and takes the keys; else the one line that says why not. */
async function targetProblem(config: TargetConfig): Promise<string | undefined> {
  const nothing = await unreachable(config.baseUrl, config.requestTimeoutMs);
  if (nothing) return nothing;
  const client = createHttpClient(config);
  try {
    return await refusedKey(client, config);
  } finally {
    await client.close();
  }
}

/**
 * A target with the control API on a loopback address is taken for a local simulator (`ofkit exec`'s,
 * gone after the run): the replay says how to start the same one. Its seed is known when `ofkit exec`
 * passed it ($OFKIT_SEED beside $OFKIT_URL naming this target).
 */
function localSimulator(suite: SuiteResult, env: NodeJS.ProcessEnv): LocalSimulator | undefined {
  const url = new URL(suite.baseUrl);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (!suite.capabilities.controlApi || !loopback || url.port === '') return undefined;
  const seed = env.OFKIT_SEED && env.OFKIT_URL === suite.baseUrl ? env.OFKIT_SEED : null;
  return { port: url.port, environment: suite.environment, seed };
}

async function runChecks(
  options: CheckOptions,
  config: TargetConfig,
  rules: Rule[],
  given: ReplayContext,
  baseline: Baseline | undefined,
): Promise<number> {
  const problem = await targetProblem(config);
  if (problem) {
    console.error(`ofkit check: ${problem}`);
    return 2;
  }
  const { include, exclude } = config.operations;
  const scope = scopedOperations(checkedDocument().operations, include, exclude);
  const running = rules.filter((rule) => ruleInScope(rule, scope)).length;
  const left = running < rules.length ? ` (${rules.length - running} out of scope)` : '';
  console.log(
    `ofkit check ${config.baseUrl}: ${running} rules${left}, seed ${options.seed} (replay with --seed ${options.seed})`,
  );
  const progress = createProgress();
  const suite = await runSuite({
    config,
    rules,
    seed: options.seed,
    document: checkedDocument(),
    strict: options.strict,
    reset: options.reset,
    ...(options.runs === undefined ? {} : { runs: options.runs }),
    ...(options.path ? { path: options.path } : {}),
    onEvent: (event) => {
      progress.onEvent(event);
      if (event.type === 'suite:start') {
        const notes = Object.entries(event.capabilities.notes).map(([name, note]) => `${name}: ${note}`);
        console.log(`capabilities: ${notes.join('; ')}`);
        if (event.tenancy) console.log(`tenant: ${event.tenancy}`);
      }
    },
  }).finally(() => progress.stop());
  const simulator = localSimulator(suite, process.env);
  const context: ReplayContext = { ...given, ...(simulator ? { simulator } : {}) };
  console.log(renderConsoleReport(suite, context));
  const reports = [
    ...options.reports,
    ...(options.writeBaseline ? [{ kind: 'json' as const, path: options.writeBaseline }] : []),
  ];
  for (const report of reports) {
    writeReport(
      report.path,
      report.kind === 'json' ? renderJson(suite, context) : renderJunit(suite, context, report.kind),
    );
    console.log(`${report.kind} report: ${report.path}`);
  }
  const shortfalls = coverageShortfalls(suite.coverage, options.minCoverage);
  for (const shortfall of shortfalls) console.log(`coverage gate: ${shortfall}`);
  const failed = (status: string) => status === 'failed' || (options.strict && status === 'inconclusive');
  const inconclusive = suite.results.filter((result) => result.status === 'inconclusive').length;
  if (options.strict && inconclusive > 0)
    console.log(
      `strict: ${inconclusive} inconclusive rules fail the run (nothing they assert was exercised)`,
    );
  const verdict = baseline && compareWithBaseline(suite.results, baseline, options.strict);
  if (verdict && baseline) for (const line of renderBaseline(verdict, baseline)) console.log(line);
  const violated = verdict ? verdict.regressions.length > 0 : suite.results.some((r) => failed(r.status));
  if (suite.stopped) {
    const notRun = suite.results.filter((result) => result.reason?.startsWith('not run:')).length;
    console.log(`STOPPED: the target stopped answering (${suite.stopped}); ${notRun} rules did not run`);
  }
  return suite.stopped || violated || shortfalls.length > 0 ? 1 : 0;
}
