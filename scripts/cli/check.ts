/**
 * `ofkit check <base-url> [--keys id:secret] [--config file] [--rules GLOB] [--seed N] [--runs N]
 * [--report junit:path] [--report json:path] [--strict] [--min-coverage operations=N,statuses=M]
 * [--receiver-host H] [--receiver-url URL]`: the conformance suite against any implementation.
 * Exit code 0 when no rule failed, 1 when one did (or coverage fell short), 2 on a usage or
 * configuration error or keys the target refuses.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { JsonValue } from '../../openapi/document/json.js';
import { createHttpClient } from '../../property-tests/src/http/http-client.js';
import {
  allRules,
  ConfigError,
  createProgress,
  freshSeed,
  loadApiDocument,
  parseSeed,
  parseTargetConfig,
  type ReplayContext,
  renderConsoleReport,
  renderJson,
  renderJunit,
  runSuite,
  selectRules,
  type TargetConfig,
} from '../../property-tests/src/index.js';
import { type CoverageThresholds, coverageShortfalls } from '../../property-tests/src/runner/coverage.js';
import { HOW_TO_PASS_KEYS, refusedKey } from '../../property-tests/src/target/key-check.js';
import {
  type Command,
  parseBaseUrl,
  parseKey,
  parseReport,
  runGuarded,
  UsageError,
  unreachable,
  writeReport,
} from './command-line.js';

const USAGE = `Usage: ofkit check <base-url> [options]

Runs the conformance suite (property-tests/) against an implementation of the API and reports rule by rule.

Options:
  --keys id:secret        API key (repeat for a second key of the same environment). Default: $OFKIT_KEY and
                          $OFKIT_SECRET when set, else the config file's, else the simulator's keys.
  --config file           target configuration (JSON, schema: property-tests/config.schema.json)
  --rules GLOB            rule IDs to run, comma-separated globs, ! excludes (e.g. 'AUTH-*,ERR-*' or '!SCHEMA:*')
  --seed N                seed of the run (default: the clock); printed on every run, replays it
  --runs N                random runs per rule (default: each rule's own, else 20)
  --report junit:path     write a JUnit XML report (repeatable with json:path)
  --report json:path      write a JSON report
  --path P                fast-check path of a shrunk case (printed with a failure, replays it alone)
  --strict                an inconclusive rule (no run reached its assertion) fails the run, and so
                          does a response member the document does not name (otherwise a note)
  --min-coverage operations=N,statuses=M
                          fail the run below N% of operations showing a success status, M% of documented
                          statuses shown with a valid body (either part alone is fine)
  --receiver-host H       where the suite's webhook receiver listens (default 127.0.0.1)
  --receiver-url URL      the public URL announced to the target for webhooks (default http://H:port)
  -h, --help              this text

Before any rule runs, GET /api/ must answer 200 to the configured keys (else exit 2).
Exit code: 0 when no rule failed, 1 when one did (or coverage fell short), 2 on a usage or configuration
error or refused keys.`;

function parseRuns(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`--runs wants a positive integer, got "${text}"`);
  return Number(text);
}

function readConfigFile(path: string | undefined): JsonValue | undefined {
  if (path === undefined) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as JsonValue;
  } catch (error) {
    throw new ConfigError(`Cannot read the config file ${path}: ${(error as Error).message}`);
  }
}

/**
 * Keys from --keys, else from $OFKIT_KEY/$OFKIT_SECRET (the variables the curl reproductions use). A
 * variable set but empty (what CI gives pull requests from forks), or one without the other, is an
 * error: never a silent fall-back to the simulator's keys.
 */
function commandLineKeys(keys: string[] | undefined, env: NodeJS.ProcessEnv): string[] | undefined {
  // Checked here so that a mistake reads the same as in simulate and pact.
  for (const key of keys ?? []) parseKey(key);
  if (keys && keys.length > 0) return keys;
  const { OFKIT_KEY: id, OFKIT_SECRET: secret } = env;
  if (id === undefined && secret === undefined) return undefined;
  if (!id || !secret) {
    const problem = [id ? '' : '$OFKIT_KEY', secret ? '' : '$OFKIT_SECRET'].filter(Boolean).join(' and ');
    throw new UsageError(
      `${problem} ${problem.includes(' and ') ? 'are' : 'is'} empty or unset while the other is set: ${HOW_TO_PASS_KEYS}`,
    );
  }
  return [`${id}:${secret}`];
}

/** `operations=N,statuses=M` (percent, either part alone). */
function parseMinCoverage(text: string | undefined): CoverageThresholds {
  if (text === undefined) return {};
  const thresholds: CoverageThresholds = {};
  for (const part of text.split(',')) {
    const match = /^(operations|statuses)=(\d+(?:\.\d+)?)$/.exec(part.trim());
    if (!match || Number(match[2]) > 100)
      throw new UsageError(`--min-coverage wants operations=N,statuses=M (percent), got "${text}"`);
    thresholds[match[1] as keyof CoverageThresholds] = Number(match[2]);
  }
  return thresholds;
}

function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      keys: { type: 'string', multiple: true },
      config: { type: 'string' },
      rules: { type: 'string', multiple: true },
      seed: { type: 'string' },
      runs: { type: 'string' },
      report: { type: 'string', multiple: true },
      path: { type: 'string' },
      strict: { type: 'boolean' },
      'min-coverage': { type: 'string' },
      'receiver-host': { type: 'string' },
      'receiver-url': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (positionals.length > 1) throw new UsageError(`one base URL, got ${positionals.join(' ')}`);
  const seed = values.seed === undefined ? freshSeed() : parseSeed(values.seed);
  if (seed === undefined)
    throw new UsageError(`--seed wants an integer from 0 to 2147483647, got "${values.seed}"`);
  return {
    help: values.help === true,
    baseUrl: positionals[0] === undefined ? undefined : parseBaseUrl(positionals[0]),
    keys: values.keys,
    configPath: values.config,
    rules: values.rules ?? [],
    seed,
    runs: parseRuns(values.runs),
    reports: (values.report ?? []).map(parseReport),
    path: values.path,
    strict: values.strict === true,
    minCoverage: parseMinCoverage(values['min-coverage']),
    receiver: {
      ...(values['receiver-host'] ? { host: values['receiver-host'] } : {}),
      ...(values['receiver-url'] ? { url: values['receiver-url'] } : {}),
    },
  };
}

/** `ofkit check ...`; resolves with the exit code. */
export function check(argv: string[]): Promise<number> {
  return runGuarded('check', async () => {
    const options = parseCommandLine(argv);
    if (options.help) {
      console.log(USAGE);
      return 0;
    }
    const config = parseTargetConfig({
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      file: readConfigFile(options.configPath),
      keys: commandLineKeys(options.keys, process.env),
      env: process.env,
      receiver: options.receiver,
    });
    return runChecks(options, config);
  });
}

/** The command's run, in main.ts's command table. */
export const checkCommand: Command['run'] = check;

async function runChecks(
  options: ReturnType<typeof parseCommandLine>,
  config: TargetConfig,
): Promise<number> {
  const document = loadApiDocument();
  const rules = selectRules(allRules(document), options.rules);
  if (rules.length === 0) {
    console.error(`ofkit check: no rule matches --rules ${options.rules.join(' ')}`);
    return 2;
  }
  const nothing = await unreachable(config.baseUrl, config.requestTimeoutMs);
  if (nothing) {
    console.error(`ofkit check: ${nothing}`);
    return 2;
  }
  const refused = await keysRefused(config);
  if (refused) {
    console.error(`ofkit check: ${refused}`);
    return 2;
  }
  console.log(
    `ofkit check ${config.baseUrl}: ${rules.length} rules, seed ${options.seed} (replay with --seed ${options.seed})`,
  );
  const progress = createProgress();
  const suite = await runSuite({
    config,
    rules,
    seed: options.seed,
    document,
    strict: options.strict,
    ...(options.runs === undefined ? {} : { runs: options.runs }),
    ...(options.path ? { path: options.path } : {}),
    onEvent: (event) => {
      progress.onEvent(event);
      if (event.type === 'suite:start') {
        const notes = Object.entries(event.capabilities.notes).map(([name, note]) => `${name}: ${note}`);
        console.log(`capabilities: ${notes.join('; ')}`);
      }
    },
  }).finally(() => progress.stop());
  const context: ReplayContext = {
    baseUrl: config.baseUrl,
    seed: options.seed,
    runs: options.runs ?? null,
    ...(options.configPath ? { configPath: options.configPath } : {}),
    keysFromCommandLine: Math.min(options.keys?.length ?? 0, 2),
  };
  console.log(renderConsoleReport(suite, context));
  for (const report of options.reports) {
    writeReport(
      report.path,
      report.kind === 'junit' ? renderJunit(suite, context) : renderJson(suite, context),
    );
    console.log(`${report.kind} report: ${report.path}`);
  }
  const shortfalls = coverageShortfalls(suite.coverage, options.minCoverage);
  for (const shortfall of shortfalls) console.log(`coverage gate: ${shortfall}`);
  const failed = (status: string) => status === 'failed' || (options.strict && status === 'inconclusive');
  return suite.results.some((result) => failed(result.status)) || shortfalls.length > 0 ? 1 : 0;
}

async function keysRefused(config: TargetConfig): Promise<string | undefined> {
  const client = createHttpClient(config);
  try {
    return await refusedKey(client, config);
  } finally {
    await client.close();
  }
}
