/**
 * `ofkit pact verify <base-url> [...]` and `ofkit pact check-spec <pacts...> [...]`: parse the command
 * line, call the library (contracts/provider, contracts/check-spec), print, return the exit code.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { VerifyOptions } from '../../contracts/provider/index.js';
import { requirePeer } from '../../openapi/config/optional-peers.js';
import type { SuitesForm } from '../../openapi/report/render-suites.js';
import {
  type Command,
  environmentKey,
  parseBaseUrl,
  parseKey,
  parseReport,
  runGuarded,
  UsageError,
  unreachable,
  wantsHelp,
  writeReport,
} from './command-line.js';
import { needsCleanedOutput, rerunWithCleanedOutput } from './plain-output.js';
import { checkReportPaths } from './report-path.js';

const USAGE = `Usage:
  ofkit pact verify <base-url> [options]     verify pacts against a running provider
  ofkit pact check-spec <pact file|dir>...   check pacts against the OpenAPI document

verify: pacts and provider
  --pacts <file|dir|url>          pact files, directories or URLs (repeatable; default ./pacts of the
                                  working directory, none when a broker is given)
  --keys <id:secret>              the provider's Basic credentials (default $OFKIT_KEY:$OFKIT_SECRET when
                                  set, else the simulator's ofkit-key-a:ofkit-secret-a)
  --link-credentials <inst:user:password>
                                  an end user of the provider's catalogue, for the link states
                                  (default ofbank_br_retail:76109277673:correct-horse)
  --mfa-token <token>             the MFA token the provider accepts (default 123456)
  --provider-name <name>          the provider in the pacts and the broker (default open-finance-api)
  --allow-unverifiable            exit 0 even when states need a control API the provider lacks
verify: Pact Broker (passed to the Pact Verifier; PACT_BROKER_* environment variables work too)
  --broker-url <url>              fetch the provider's pacts from this broker (PACT_BROKER_BASE_URL)
  --broker-token <token>          bearer token (PACT_BROKER_TOKEN)
  --broker-username <user>        basic auth (PACT_BROKER_USERNAME), with --broker-password
  --broker-password <password>    (PACT_BROKER_PASSWORD)
  --consumer-version-selector <json>
                                  (repeatable; default {"mainBranch":true} and {"deployedOrReleased":true})
  --consumer-version-tag <tag>    (repeatable)
  --enable-pending                pending pacts do not fail the build
  --include-wip-pacts-since <date>
                                  also verify work-in-progress pacts since YYYY-MM-DD
  --provider-version <version>    the provider version the results are for (required by --publish)
  --provider-version-branch <b>   the provider's branch
  --provider-version-tag <tag>    (repeatable)
  --build-url <url>               the CI build that produced the results
  --publish                       publish the verification results to the broker
check-spec
  --document <path>               a bundled OpenAPI document (default openapi/generated/openapi.json)
  --strict                        response examples must hold every required member too
both
  --report <kind:path>  write a report as well: junit:, json: or md: (repeatable)
  --log-level <level>             the Pact libraries' log level: error, warn, info, debug, trace

verify needs @pact-foundation/pact, an optional peer dependency (npm i -D @pact-foundation/pact);
check-spec does not.

Exit codes: 0 every interaction agrees or passed; 1 some did not (or were unverifiable);
2 the command could not run (bad options, no pacts, provider or broker unreachable).`;

const KEYS_HOW_TO = 'pass --keys id:secret, or set both variables to a key the provider accepts';

function pair(text: string, flag: string, parts: number): string[] {
  const pieces = text.split(':');
  if (pieces.length < parts || pieces.some((piece) => piece === ''))
    throw new UsageError(`${flag} wants ${'x:'.repeat(parts - 1)}x, got "${text}"`);
  // The last part keeps any further colons (passwords may hold them).
  return [...pieces.slice(0, parts - 1), pieces.slice(parts - 1).join(':')];
}

/** Parsed before the run, so that a mistake costs no verification; written after it. */
function reportWriter(reports: string[] | undefined) {
  const targets = (reports ?? []).map(parseReport);
  checkReportPaths('--report', targets);
  return (cases: (form: SuitesForm) => string, json: () => unknown) => {
    for (const { kind, path } of targets)
      writeReport(path, kind === 'json' ? `${JSON.stringify(json(), null, 2)}\n` : cases(kind));
  };
}

const VERIFY_FLAGS = {
  pacts: { type: 'string', multiple: true },
  keys: { type: 'string' },
  'link-credentials': { type: 'string' },
  'mfa-token': { type: 'string' },
  'provider-name': { type: 'string' },
  'allow-unverifiable': { type: 'boolean' },
  'broker-url': { type: 'string' },
  'broker-token': { type: 'string' },
  'broker-username': { type: 'string' },
  'broker-password': { type: 'string' },
  'consumer-version-selector': { type: 'string', multiple: true },
  'consumer-version-tag': { type: 'string', multiple: true },
  'enable-pending': { type: 'boolean' },
  'include-wip-pacts-since': { type: 'string' },
  'provider-version': { type: 'string' },
  'provider-version-branch': { type: 'string' },
  'provider-version-tag': { type: 'string', multiple: true },
  'build-url': { type: 'string' },
  publish: { type: 'boolean' },
  report: { type: 'string', multiple: true },
  'log-level': { type: 'string' },
} as const;

type VerifyValues = ReturnType<
  typeof parseArgs<{ options: typeof VERIFY_FLAGS; allowPositionals: true }>
>['values'];

function brokerOf(values: VerifyValues): VerifyOptions['broker'] {
  const url = values['broker-url'] ?? process.env.PACT_BROKER_BASE_URL;
  if (url === undefined) return undefined;
  return {
    url,
    token: values['broker-token'],
    username: values['broker-username'],
    password: values['broker-password'],
    consumerVersionSelectors: values['consumer-version-selector']?.map((json) => JSON.parse(json)),
    consumerVersionTags: values['consumer-version-tag'],
    enablePending: values['enable-pending'],
    includeWipPactsSince: values['include-wip-pacts-since'],
  };
}

/** `./pacts` of the working directory, never the package's own reference pacts; none with a broker. */
function defaultPacts(values: VerifyValues): string[] | undefined {
  if (values['broker-url'] ?? process.env.PACT_BROKER_BASE_URL) return undefined;
  const local = resolve('pacts');
  if (!existsSync(local)) throw new UsageError('no pacts: name them with --pacts, or put them in ./pacts');
  return [local];
}

function verifyOptions(baseUrl: string, values: VerifyValues): VerifyOptions {
  const keys = values.keys ?? environmentKey(process.env, KEYS_HOW_TO);
  const { secretId = '', secretPassword = '' } = keys ? parseKey(keys) : {};
  const link = values['link-credentials'];
  const [institution = '', username = '', password = ''] = link ? pair(link, '--link-credentials', 3) : [];
  if (values.publish && values['provider-version'] === undefined)
    throw new UsageError('--publish needs --provider-version');
  return {
    baseUrl,
    pacts: values.pacts ?? defaultPacts(values),
    broker: brokerOf(values),
    providerName: values['provider-name'],
    providerVersion: values['provider-version'],
    providerVersionBranch: values['provider-version-branch'],
    providerVersionTags: values['provider-version-tag'],
    publish: values.publish,
    buildUrl: values['build-url'],
    ...(keys && { key: { secretId, secretPassword } }),
    ...(link && { credentials: { institution, username, password } }),
    mfaToken: values['mfa-token'],
    logLevel: values['log-level'] as VerifyOptions['logLevel'],
  };
}

async function verify(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, options: VERIFY_FLAGS, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError('verify wants one <base-url>');
  const baseUrl = parseBaseUrl(positionals[0]);
  const options = verifyOptions(baseUrl, values);
  const writeReports = reportWriter(values.report);
  requirePeer('@pact-foundation/pact', 'ofkit pact verify');
  const nothing = await unreachable(baseUrl);
  if (nothing) {
    console.error(`ofkit pact: ${nothing}`);
    return 2;
  }
  const { describeVerification, verificationJUnit, verifyPacts } = await import(
    '../../contracts/provider/index.js'
  );
  const report = await verifyPacts(options);
  console.log(`\n${describeVerification(report)}`);
  writeReports(
    (form) => verificationJUnit(report, form),
    () => report,
  );
  const tolerated = values['allow-unverifiable'] ? ['passed', 'unverifiable'] : ['passed'];
  const passed = report.outcomes.length > 0 && report.unattributed.length === 0;
  return passed && report.outcomes.every((outcome) => tolerated.includes(outcome.status)) ? 0 : 1;
}

async function checkSpec(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: {
      report: { type: 'string', multiple: true },
      document: { type: 'string' },
      strict: { type: 'boolean' },
    },
    allowPositionals: true,
  });
  if (positionals.length === 0) throw new UsageError('check-spec wants at least one pact file or directory');
  const missing = positionals.filter((path) => !existsSync(path));
  if (missing.length > 0)
    throw new UsageError(
      `no pact file or folder at ${missing.join(', ')} (name the pacts your consumer tests wrote, e.g. pacts/)`,
    );
  const writeReports = reportWriter(values.report);
  const { checkPacts, checkSpecJUnit, describeCheckSpec } = await import(
    '../../contracts/check-spec/index.js'
  );
  const report = await checkPacts(positionals, { document: values.document, strict: values.strict ?? false });
  console.log(describeCheckSpec(report));
  writeReports(
    (form) => checkSpecJUnit(report, form),
    () => report,
  );
  return report.ok ? 0 : 1;
}

/** `ofkit pact <verify|check-spec> ...`; resolves with the exit code. */
export async function pact(argv: string[]): Promise<number> {
  // The Pact libraries send usage data unless told not to; ofkit tells them (before they load).
  process.env.PACT_DO_NOT_TRACK ??= 'true';
  const [subcommand, ...rest] = argv;
  if (subcommand === undefined || wantsHelp(argv)) {
    console.log(USAGE);
    return subcommand === undefined ? 2 : 0;
  }
  return runGuarded(
    'pact',
    async () => {
      if (subcommand === 'verify') return await verify(rest);
      if (subcommand === 'check-spec') return await checkSpec(rest);
      throw new UsageError(`unknown subcommand "${subcommand}"`);
    },
    { anyError: true, usage: USAGE },
  );
}

/**
 * The command's run, in main.ts's command table. Pact's verifier colours whatever it prints: off a
 * terminal (or with NO_COLOR) the verification runs as a child whose output is cleaned.
 */
export const pactCommand: Command['run'] = (argv) =>
  argv[0] === 'verify' && !wantsHelp(argv) && needsCleanedOutput() ? rerunWithCleanedOutput() : pact(argv);
