/**
 * `ofkit drift <recording.har...> [--allow FILE] [--report KIND:PATH] [--base-url URL]`: the recording
 * proxy's checks, offline, over HAR files from any source, and the drift report. Exit 1 on drift (a
 * difference no `--allow` entry accepts), 2 when it cannot run or finds no exchange of the API.
 */
import { parseArgs } from 'node:util';
import { loadBridgeDocument } from '../../bridge/src/document/bridge-document.js';
import { checkRecordings } from '../../bridge/src/recording/check-recordings.js';
import { readAllowFile } from '../../bridge/src/report/allow-list.js';
import { driftExitCode, driftVerdict } from '../../bridge/src/report/drift-report.js';
import { consoleReport } from '../../bridge/src/report/report-formats.js';
import { writeDriftReports } from '../../bridge/src/report/report-targets.js';
import { type Command, parseBaseUrl, parseReport, runGuarded, UsageError } from './command-line.js';
import { checkReportPaths } from './report-path.js';

const USAGE = `Usage: ofkit drift <recording.har...> [options]

Checks HAR 1.2 recordings from any source (ofkit record, a browser's export, Playwright's recordHar,
mitmproxy, Charles, Postman) against the document and the rules passing traffic shows, and reports
where the API and the document disagree: per operation and status, members the API sent that the
document lacks, required members it left out, values outside enums and formats, undocumented statuses
and operations, and the rules the traffic broke, most exchanges first. The client judge grades the
client's side. Samples are redacted (credentials always; personal data unless --keep-personal).

Options:
  --allow FILE          accepted differences: a YAML list of { match, reason }; \`match\` is a regular
                        expression over "<operation> <status> <kind> [member] [rule]" (see docs/bridge.md)
  --report KIND:PATH    junit:, json: or md: (a pull-request comment); repeatable
  --base-url URL        the API's base URL in the recordings (default: the one ofkit recorded, else the
                        host most of whose requests are the API's; other hosts are not checked)
  --keep-personal       show personal values in samples as recorded
  -h, --help            this text

Exit code: 0 no drift, 1 drift, 2 could not run (or no exchange of the API in the recordings).`;

function parse(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      allow: { type: 'string' },
      report: { type: 'string', multiple: true },
      'base-url': { type: 'string' },
      'keep-personal': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return { help: true as const };
  if (positionals.length === 0) throw new UsageError('give one or more HAR files');
  const reports = (values.report ?? []).map(parseReport);
  checkReportPaths('--report', reports);
  return {
    help: false as const,
    files: positionals,
    allow: values.allow,
    reports,
    baseUrl: values['base-url'] === undefined ? undefined : parseBaseUrl(values['base-url'], '--base-url'),
    keepPersonal: values['keep-personal'] === true,
  };
}

/** `ofkit drift ...`; resolves with the exit code. */
export function drift(argv: string[], print: (line: string) => void = console.log): Promise<number> {
  return runGuarded('drift', async () => {
    const args = parse(argv);
    if (args.help) {
      print(USAGE);
      return 0;
    }
    const report = await checkRecordings({
      document: loadBridgeDocument(),
      files: args.files,
      ...(args.baseUrl && { baseUrl: args.baseUrl }),
      keepPersonal: args.keepPersonal,
      allowances: args.allow === undefined ? [] : readAllowFile(args.allow),
      onError: (file, index, message) =>
        console.error(
          `ofkit drift: ${file}: exchange ${index} of the API left out (internal error: ${message})`,
        ),
    });
    print(consoleReport(report));
    for (const path of writeDriftReports(report, args.reports)) print(`ofkit drift: report written: ${path}`);
    if (driftVerdict(report) === 'no verdict')
      console.error(
        `ofkit drift: no exchange of the API in ${args.files.join(', ')}: nothing was checked (an API served under a path needs --base-url)`,
      );
    return driftExitCode(report);
  });
}

/** The command's run, in main.ts's command table. */
export const driftCommand: Command['run'] = (argv) => drift(argv);
