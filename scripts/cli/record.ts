/**
 * `ofkit record <base-url> --out session.har` and `ofkit proxy <base-url>`: the transparent recording
 * proxy in front of any implementation of the API (bridge/). A line per new difference as it happens,
 * the drift report at shutdown (SIGINT, SIGTERM), `--report` files; exit 1 on drift, 2 when it cannot run.
 */
import { parseArgs } from 'node:util';
import type { Finding } from '../../bridge/src/checks/finding.js';
import { probeUpstream } from '../../bridge/src/proxy/reach-upstream.js';
import { packageVersion } from '../../bridge/src/recording/package-version.js';
import { RECORDER_NODE_FLAGS, startRecorder } from '../../bridge/src/recording/recorder.js';
import { type Allowance, readAllowFile } from '../../bridge/src/report/allow-list.js';
import { driftExitCode, driftVerdict } from '../../bridge/src/report/drift-report.js';
import { consoleReport } from '../../bridge/src/report/report-formats.js';
import { writeDriftReports } from '../../bridge/src/report/report-targets.js';
import { parseAllowedHost } from '../../openapi/security/host-check.js';
import {
  type Command,
  ConfigError,
  parseBaseUrl,
  parsePort,
  parseReport,
  runGuarded,
  UsageError,
} from './command-line.js';
import { relaunchWith } from './relaunch.js';
import { checkReportPaths } from './report-path.js';

/** Not 4010, which the simulator takes by default: both can run side by side. */
export const DEFAULT_PROXY_PORT = 4020;

const OPTIONS = `Options:
  --port N              where the proxy listens (default ${DEFAULT_PROXY_PORT}; 0 for a free port)
  --host H              default 127.0.0.1
  --allowed-host NAME   a Host name the proxy answers besides localhost, *.localhost and IP addresses
                        (repeatable; .example.com: that domain and its subdomains)
  --keep-personal       keep personal data (names, document and account numbers, emails...) as sent;
                        credentials (the API key, passwords, PINs, MFA tokens) are always redacted
  --allow FILE          accepted differences: a YAML list of { match, reason } (see docs/bridge.md)
  --report KIND:PATH    at shutdown, junit:, json: or md: (a pull-request comment); repeatable
  --timeout SECONDS     how long to wait for the API (default 60)
  --quiet               no line per difference (the summary still prints)
  -h, --help            this text`;

export const RECORD_USAGE = `Usage: ofkit record <base-url> --out session.har [options]

A transparent proxy in front of an implementation of the API (the provider's sandbox, a staging server,
another ofkit): point a client at it and it gets exactly what the implementation answered (absolute URLs
to it rewritten to the proxy). Each exchange is validated against the document (JSON Schema 2020-12),
checked against the rules passing traffic shows, judged from the client's side, and appended to the HAR
1.2 file with secrets and personal data redacted (deterministic pseudonyms). Stop with Ctrl-C: the drift
report prints then. HTTPS APIs: the platform CA store and NODE_EXTRA_CA_CERTS are trusted, HTTPS_PROXY
is used. Exit code: 0 no drift, 1 drift, 2 could not run (or no exchange of the API went through).

  --out FILE            the recording (HAR 1.2; folders must exist)
${OPTIONS}`;

export const PROXY_USAGE = `Usage: ofkit proxy <base-url> [options]

The recording proxy of \`ofkit record\` without a recording: it checks every exchange as it passes and
prints the drift report at shutdown (Ctrl-C). Exit code: 0 no drift, 1 drift, 2 could not run (or no
exchange of the API went through).

${OPTIONS}`;

export interface RecordRunOptions {
  /** Stops the proxy (tests); the command line uses SIGINT and SIGTERM. */
  signal?: AbortSignal;
  /** Where lines go (default console.log). */
  print?: (line: string) => void;
  /** Told the proxy's URL once it listens (tests). */
  onListening?: (url: string) => void;
}

function parse(argv: string[], mode: 'record' | 'proxy') {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      out: { type: 'string' },
      port: { type: 'string', default: String(DEFAULT_PROXY_PORT) },
      host: { type: 'string', default: '127.0.0.1' },
      'allowed-host': { type: 'string', multiple: true },
      'keep-personal': { type: 'boolean' },
      allow: { type: 'string' },
      report: { type: 'string', multiple: true },
      timeout: { type: 'string', default: '60' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true as const };
  if (mode === 'record' && values.out === undefined)
    throw new UsageError('give the recording file with --out session.har');
  if (mode === 'proxy' && values.out !== undefined)
    throw new UsageError('ofkit proxy records nothing: use ofkit record --out');
  const timeout = Number(values.timeout);
  if (!Number.isFinite(timeout) || timeout <= 0)
    throw new UsageError(`--timeout wants seconds, got "${values.timeout}"`);
  const reports = (values.report ?? []).map(parseReport);
  checkReportPaths('--report', reports);
  return {
    help: false as const,
    upstream: parseBaseUrl(positionals[0], 'base URL of the API to record'),
    out: values.out,
    port: parsePort(values.port),
    host: values.host,
    allowedHosts: (values['allowed-host'] ?? []).map(parseAllowedHost),
    keepPersonal: values['keep-personal'] === true,
    allow: values.allow,
    reports,
    timeout,
    quiet: values.quiet === true,
  };
}

/** One line per new difference (the first exchange of each): what, where, and the rule when one is broken. */
function findingLine(finding: Finding): string {
  const where = [finding.member, finding.rule].filter(Boolean).join(' ');
  return `${finding.operation} ${finding.status} ${finding.kind}${where ? ` ${where}` : ''}: ${finding.message}`;
}

type Args = Exclude<ReturnType<typeof parse>, { help: true }>;

/** The recorder a command line asks for, printing a line per new difference (the first of each). */
function startFromArgs(
  args: Args,
  mode: 'record' | 'proxy',
  allowances: Allowance[],
  print: (line: string) => void,
) {
  const printed = new Set<string>();
  return startRecorder({
    upstream: args.upstream,
    port: args.port,
    host: args.host,
    allowedHosts: args.allowedHosts,
    ...(args.out && { harPath: args.out }),
    keepPersonal: args.keepPersonal,
    allowances,
    timeoutSeconds: args.timeout,
    version: packageVersion(),
    onFinding: (finding) => {
      const key = [finding.kind, finding.rule, finding.operation, finding.status, finding.member].join('|');
      if (args.quiet || finding.kind === 'request' || printed.has(key)) return;
      printed.add(key);
      print(`ofkit ${mode}: ${findingLine(finding)}`);
    },
    onFallingBehind: () =>
      print(
        `ofkit ${mode}: the checks fell behind the traffic; exchanges are being left out of the recording (counted in the report)`,
      ),
    onError: (message) =>
      print(`ofkit ${mode}: an exchange was left out of the checks and the recording (${message})`),
    onUpstreamFailure: (exchange) =>
      print(
        `ofkit ${mode}: ${exchange.request.method} ${new URL(exchange.request.url).pathname}: ${exchange.upstreamFailure?.message}`,
      ),
  });
}

/** The accepted differences; a ConfigError when the --allow file is wrong or nothing answers at the API. */
async function preflight(args: Args): Promise<Allowance[]> {
  const allowances = args.allow === undefined ? [] : readAllowFile(args.allow);
  const nothing = await probeUpstream(args.upstream, Math.min(args.timeout, 10));
  if (nothing) throw new ConfigError(nothing);
  return allowances;
}

/** `ofkit record` / `ofkit proxy`; resolves with the exit code once the proxy stops. */
export function record(
  argv: string[],
  mode: 'record' | 'proxy',
  options: RecordRunOptions = {},
): Promise<number> {
  const print = options.print ?? ((line: string) => console.log(line));
  return runGuarded(mode, async () => {
    const args = parse(argv, mode);
    if (args.help) {
      print(mode === 'record' ? RECORD_USAGE : PROXY_USAGE);
      return 0;
    }
    const allowances = await preflight(args);
    const recorder = await startFromArgs(args, mode, allowances, print);
    // Listening for the signals before saying where it listens: whoever reads that line may stop it at once.
    const stop = stopped(options.signal);
    options.onListening?.(recorder.url);
    const target = args.out
      ? `recording to ${args.out} (personal data ${args.keepPersonal ? 'kept' : 'redacted'})`
      : 'checking only';
    print(`ofkit ${mode}: listening on ${recorder.url} in front of ${args.upstream}; ${target}`);
    print(`ofkit ${mode}: TLS ${recorder.trust}`);
    await stop;
    const report = await recorder.close();
    print(consoleReport(report));
    for (const path of writeDriftReports(report, args.reports))
      print(`ofkit ${mode}: report written: ${path}`);
    // No exchange of the API through the proxy (a client still pointed at the API itself): no verdict.
    if (driftVerdict(report) === 'no verdict')
      console.error(
        `ofkit ${mode}: no exchange of the API went through ${recorder.url}: nothing was checked (point the client at it)`,
      );
    return driftExitCode(report);
  });
}

/** Resolves on SIGINT, SIGTERM or `signal`'s abort. */
export function stopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    signal?.addEventListener('abort', stop, { once: true });
    if (signal?.aborted) stop();
  });
}

/**
 * `ofkit record` or `ofkit proxy` from the command line: in a process started with the recorder's Node
 * flags (relaunched when this one lacks them).
 */
export async function recordFromCommandLine(argv: string[], mode: 'record' | 'proxy'): Promise<number> {
  return (await relaunchWith(RECORDER_NODE_FLAGS)) ?? record(argv, mode);
}

/** The command's run, in main.ts's command table. */
export const recordCommand: Command['run'] = (argv) => recordFromCommandLine(argv, 'record');
