/**
 * `ofkit golive [options] -- <client command>`: the client's own command once per situation of the
 * catalogue, each against a fresh simulator, the client judged, and the go-live checklist's verdicts
 * with the evidence bundle. `ofkit golive verify DIR -- <client command>`: a bundle's situations again
 * from its seeds, item by item reproduced or not.
 */
import { parseArgs } from 'node:util';
import { packageVersion } from '../../bridge/src/recording/package-version.js';
import {
  BundleError,
  bundlePlan,
  type Catalogue,
  CommandNotRun,
  catalogueConfigs,
  chooseSituations,
  exitCodeOf,
  goliveBundle,
  NotApplicableError,
  parseNotApplicable,
  readBundle,
  readCatalogue,
  reproductions,
  runGolive,
  shellLine,
  UnknownSituationError,
  writeBundle,
} from '../../golive/src/index.js';
import { bundledApiDocument } from '../../openapi/document/api-document.js';
import type { Timing } from '../../simulator/src/judge/judge.js';
import { type Command, runGuarded, UsageError } from './command-line.js';
import { commandClient } from './golive-client.js';
import { itemTable, progressLine, reproductionTable, summaryLine } from './golive-output.js';

export const GOLIVE_USAGE = `Usage: ofkit golive [options] -- <client command> [args...]
       ofkit golive verify DIR [--concurrency N] [--client-log PATH] -- <client command> [args...]

Runs the client's command once per situation (MFA, failing institutions, limits, webhooks repeated and
forged, many pages, the sandbox...), each against a fresh simulator with the same variables as ofkit
exec (OFKIT_URL, OFKIT_KEY, OFKIT_SECRET, OFKIT_CONTROL_URL, OFKIT_SEED, OFKIT_ENVIRONMENT) and
OFKIT_SITUATION, OFKIT_JUDGE_TIMING; judges the client in each, and gives a verdict per item of the
go-live checklist: Ready, Ready with risks, Not ready, or not assessed (docs/golive.md).

  --situations LIST        comma-separated situation ids (default: every one)
  --concurrency N          situations run at once (default 1: a client that cannot share the machine)
  --judge-timing T         real (default): retry waits judged on the machine's time; order-only: on
                           order and count (the client's waits are faked: OFKIT_JUDGE_TIMING says so)
  --client-log PATH        a file the client logs to: read with its output after each situation, where
                           the request_id of each failure it leaves behind is looked for
  --out DIR                write the evidence bundle: golive.html, golive.json, golive.xml (JUnit)
  --not-applicable ITEM=REASON            an item that does not apply to the client (repeatable)
  --not-applicable ITEM:SITUATION=REASON  one situation of an item that does not apply
  --strict                 exit 1 on Ready with risks too
  -h, --help               this text

Exit code: 0 when no item is Not ready (with --strict: nor Ready with risks), 1 otherwise, 2 when it
could not run. verify: 0 when every item's verdict reproduces, 1 otherwise, 2 when it could not run.`;

const OPTIONS = {
  situations: { type: 'string' },
  concurrency: { type: 'string' },
  'judge-timing': { type: 'string' },
  out: { type: 'string' },
  'client-log': { type: 'string' },
  'not-applicable': { type: 'string', multiple: true },
  strict: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

function parseConcurrency(text: string | undefined): number {
  if (text === undefined) return 1;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1) throw new UsageError(`--concurrency wants 1 or more, got "${text}"`);
  return value;
}

function parseTiming(text: string | undefined): Timing {
  if (text === undefined || text === 'real' || text === 'order-only') return text ?? 'real';
  throw new UsageError(`--judge-timing must be real or order-only, got "${text}"`);
}

/** Library errors that are the command line's mistakes. */
function asUsage<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (
      error instanceof NotApplicableError ||
      error instanceof UnknownSituationError ||
      error instanceof BundleError
    )
      throw new UsageError(error.message);
    throw error;
  }
}

function splitCommand(argv: readonly string[]): { before: string[]; command: string[] } {
  const end = argv.indexOf('--');
  return {
    before: end === -1 ? [...argv] : argv.slice(0, end),
    command: end === -1 ? [] : argv.slice(end + 1),
  };
}

const versions = () => ({
  ofkit: packageVersion(),
  interface: bundledApiDocument('api', { checkSchemas: false }).version,
  node: process.version,
});

/** Runs the plan with the command, printing a progress line per situation on stderr. */
async function runWith(
  command: string[],
  timing: Timing,
  clientLog: string | undefined,
  run: Omit<Parameters<typeof runGolive>[0], 'client' | 'timing' | 'onRun'>,
) {
  const { client, dispose } = commandClient(command, timing, clientLog);
  try {
    return await runGolive({
      ...run,
      timing,
      client,
      onRun: (done, index, total) => console.error(progressLine(done, index, total)),
    });
  } catch (error) {
    if (error instanceof CommandNotRun) throw new UsageError(error.message);
    throw error;
  } finally {
    dispose();
  }
}

async function golive(argv: readonly string[]): Promise<number> {
  const { before, command } = splitCommand(argv);
  const { values } = parseArgs({ args: before, options: OPTIONS, strict: true, allowPositionals: false });
  if (values.help) {
    console.log(GOLIVE_USAGE);
    return 0;
  }
  if (command.length === 0) throw new UsageError('give the client command to run after --');
  const catalogue: Catalogue = readCatalogue();
  const timing = parseTiming(values['judge-timing']);
  const concurrency = parseConcurrency(values.concurrency);
  const notApplicable = asUsage(() =>
    (values['not-applicable'] ?? []).map((text) => parseNotApplicable(text, catalogue)),
  );
  const ids = values.situations
    ?.split(',')
    .map((id) => id.trim())
    .filter(Boolean);
  const plan = catalogueConfigs(asUsage(() => chooseSituations(catalogue, ids)));
  const { runs, items } = await runWith(command, timing, values['client-log'], {
    catalogue,
    plan,
    concurrency,
    notApplicable,
  });
  const exitCode = exitCodeOf(items, values.strict);
  console.log(itemTable(items));
  console.log(summaryLine(items, exitCode, values.strict));
  if (values.out !== undefined) {
    const bundle = goliveBundle({
      versions: versions(),
      command: shellLine(command),
      folder: values.out,
      timing,
      strict: values.strict,
      notApplicable,
      items,
      runs,
      catalogue,
    });
    console.log(`the evidence bundle: ${writeBundle(values.out, bundle).join(', ')}`);
    console.log(`reproduce it: ${bundle.reproduce}`);
  }
  return exitCode;
}

async function verify(argv: readonly string[]): Promise<number> {
  const { before, command } = splitCommand(argv);
  const { values, positionals } = parseArgs({
    args: before,
    options: { concurrency: OPTIONS.concurrency, 'client-log': OPTIONS['client-log'], help: OPTIONS.help },
    strict: true,
    allowPositionals: true,
  });
  if (values.help) {
    console.log(GOLIVE_USAGE);
    return 0;
  }
  const [folder, ...extra] = positionals;
  if (folder === undefined || extra.length > 0)
    throw new UsageError('verify wants one bundle folder: ofkit golive verify DIR -- <command>');
  if (command.length === 0) throw new UsageError('give the client command to run after --');
  const bundle = asUsage(() => readBundle(folder));
  const concurrency = parseConcurrency(values.concurrency);
  const { items } = await runWith(command, bundle.timing, values['client-log'], {
    catalogue: bundle.catalogue,
    plan: bundlePlan(bundle),
    concurrency,
    notApplicable: bundle.not_applicable,
  });
  const compared = reproductions(bundle, items);
  console.log(reproductionTable(compared));
  const differing = compared.filter((item) => !item.reproduced).length;
  console.log(
    differing === 0
      ? `every verdict of the bundle reproduces (${compared.length} items)`
      : `${differing} of ${compared.length} verdicts do not reproduce`,
  );
  return differing === 0 ? 0 : 1;
}

/** The command's run, in main.ts's command table. */
export const goliveCommand: Command['run'] = (argv) =>
  runGuarded('golive', () => (argv[0] === 'verify' ? verify(argv.slice(1)) : golive(argv)), {
    usage: GOLIVE_USAGE,
  });
