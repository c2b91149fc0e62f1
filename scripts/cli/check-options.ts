/**
 * `ofkit check`'s command line: its usage text and the parsing of every option, each mistake one line
 * of ofkit's own (an unknown option names the closest known one), before anything runs.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { JsonValue } from '../../openapi/document/json.js';
import { ConfigError, freshSeed, parseSeed } from '../../property-tests/src/index.js';
import type { CoverageThresholds } from '../../property-tests/src/runner/coverage.js';
import { HOW_TO_PASS_KEYS } from '../../property-tests/src/target/key-check.js';
import { parseBaseUrl, parseKey, parseReport, UsageError } from './command-line.js';

export const CHECK_USAGE = `Usage: ofkit check <base-url> [options]

Runs the conformance suite (property-tests/) against an implementation of the API and reports rule by rule.

Options:
  --keys id:secret        API key (repeat for a second key of the same environment). Default: $OFKIT_KEY and
                          $OFKIT_SECRET when set, else the config file's, else the simulator's keys.
  --config file           target configuration (JSON, schema: property-tests/config.schema.json)
  --environment E         production or sandbox: the environment of the key (default: the one GET /api/
                          names). In the sandbox, what the spec documents as unavailable there (payment
                          initiation, employment metrics) is skipped (environment); PAY-SANDBOX runs.
  --operations GLOB       the operations to check: operationIds or tags, comma-separated globs, ! excludes
                          (e.g. 'getApiRoot,Links,listInstitutions'); rules that need others are not run.
                          Default: the config's operations.include, else every operation
  --rules GLOB            rule IDs to run, comma-separated globs, ! excludes (e.g. 'AUTH-*,ERR-*' or '!SCHEMA:*')
  --seed N                seed of the run (default: the clock); printed on every run, replays it
  --runs N                random runs per rule (default: each rule's own, else 20)
  --report junit:path     write a JUnit XML report (repeatable, with json:path and md:path)
  --report json:path      write a JSON report; md:path a Markdown one
  --path P                fast-check path of a shrunk case (printed with a failure, replays it alone)
  --strict                the CI mode: an inconclusive rule (nothing it asserts was exercised, e.g. an
                          operation that never answered a success status) fails the run, and so does a
                          response member the document does not name (otherwise a note)
  --baseline report.json  gate on regressions against an earlier JSON report: fail only on a rule that passed
                          there and fails now, or on a failure not seen there (rule, operation, message
                          with its values left out); says what improved
  --write-baseline PATH   write this run's JSON report to PATH, for a later --baseline
  --reset                 reset the tenant first even when it holds state this run did not create (its
                          links, records and events are lost); without it such a tenant is left alone
  --min-coverage operations=N,statuses=M
                          fail the run below N% of operations answering a success status, M% of documented
                          statuses shown with a valid body (either part alone is fine)
  --receiver-host H       where the suite's webhook receiver listens (default 127.0.0.1)
  --receiver-url URL      the public URL announced to the target for webhooks (default http://H:port)
  -h, --help              this text

In CI: ofkit check <base-url> --strict --min-coverage operations=100 --report junit:reports/conformance.xml
Before any rule runs, the options, the config file, every --report path and the keys are checked (GET /api/
must answer 200 to the configured keys). Exit code: 0 when no rule failed, 1 when one did (or coverage fell
short, or a rule was inconclusive under --strict), 2 on a usage or configuration error or refused keys.`;

const OPTIONS = {
  keys: { type: 'string', multiple: true },
  config: { type: 'string' },
  environment: { type: 'string' },
  rules: { type: 'string', multiple: true },
  operations: { type: 'string', multiple: true },
  baseline: { type: 'string' },
  'write-baseline': { type: 'string' },
  reset: { type: 'boolean' },
  seed: { type: 'string' },
  runs: { type: 'string' },
  report: { type: 'string', multiple: true },
  path: { type: 'string' },
  strict: { type: 'boolean' },
  'min-coverage': { type: 'string' },
  'receiver-host': { type: 'string' },
  'receiver-url': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min(
        previous[j]! + 1,
        row[j - 1]! + 1,
        previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** ` (did you mean --x?)` for the known option closest to `given`, when one is close. */
export function suggestion(given: string): string {
  const name = given.replace(/^-+/, '').split('=')[0] ?? '';
  const [best] = Object.keys(OPTIONS)
    .map((option) => ({
      option,
      cost: option.startsWith(name) && name.length > 1 ? 0 : distance(name, option),
    }))
    .sort((a, b) => a.cost - b.cost);
  return best && best.cost <= Math.max(2, Math.floor(name.length / 3))
    ? ` (did you mean --${best.option}?)`
    : '';
}

/** Node's parseArgs, its errors rewritten as ofkit's one-line usage errors. */
function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    const option = /'(-[^' ]+)/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
      throw new UsageError(`unknown option ${option}${suggestion(option)}`);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
      throw new UsageError(`${option || 'an option'} wants a value`);
    throw new UsageError(message.split('\n')[0] ?? message);
  }
}

function parseRuns(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < 1)
    throw new UsageError(`--runs wants a positive integer, got "${text}"`);
  return Number(text);
}

function parseEnvironment(text: string | undefined): 'production' | 'sandbox' | undefined {
  if (text === undefined || text === 'production' || text === 'sandbox') return text;
  throw new UsageError(`--environment wants production or sandbox, got "${text}"`);
}

/** The config file as written (before `${NAME}` expansion), or undefined without --config. */
export function readConfigFile(path: string | undefined): JsonValue | undefined {
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
export function commandLineKeys(keys: string[] | undefined, env: NodeJS.ProcessEnv): string[] | undefined {
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

export type CheckOptions = ReturnType<typeof parseCheckOptions>;

export function parseCheckOptions(argv: string[]) {
  const { values, positionals } = parse(argv);
  if (positionals.length > 1) throw new UsageError(`one base URL, got ${positionals.join(' ')}`);
  const seed = values.seed === undefined ? freshSeed() : parseSeed(values.seed);
  if (seed === undefined)
    throw new UsageError(`--seed wants an integer from 0 to 2147483647, got "${values.seed}"`);
  return {
    help: values.help === true,
    baseUrl: positionals[0] === undefined ? undefined : parseBaseUrl(positionals[0]),
    keys: values.keys,
    configPath: values.config,
    environment: parseEnvironment(values.environment),
    rules: values.rules ?? [],
    operations: values.operations,
    baseline: values.baseline,
    writeBaseline: values['write-baseline'],
    reset: values.reset === true,
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
