/**
 * `ofkit drift` as a library: reads HAR files from any source, keeps the exchanges with the API (the
 * recording's own upstream, the `baseUrl` given, or else the origin most of whose requests are the
 * document's operations), runs each recording through the same session the live proxy runs, and builds
 * the drift report.
 */
import { randomBytes } from 'node:crypto';
import type { BridgeDocument } from '../document/bridge-document.js';
import { basePathOf } from '../exchange/api-path.js';
import type { Exchange } from '../exchange/exchange.js';
import { type Recording, readRecordings } from '../har/har-reader.js';
import type { Allowance } from '../report/allow-list.js';
import {
  buildDriftReport,
  type DriftReport,
  type RecordingFacts,
  type SourcedFinding,
} from '../report/drift-report.js';
import { createRecordingSession } from './recording-session.js';

export interface CheckRecordingsOptions {
  document: BridgeDocument;
  files: readonly string[];
  /** The API's base URL in the recordings (default: the recording's own, or inferred). */
  baseUrl?: string;
  keepPersonal: boolean;
  allowances: readonly Allowance[];
  /**
   * Told of an exchange an internal error kept out of the checks (`file`, the entry's index among the
   * API's exchanges, the message): it is counted and the rest are checked, as in the live proxy.
   */
  onError?: (file: string, index: number, message: string) => void;
}

/** The origin (with base path) most of whose exchanges are operations of the document. */
function inferBase(document: BridgeDocument, exchanges: readonly Exchange[]): string | undefined {
  const votes = new Map<string, number>();
  for (const exchange of exchanges) {
    const url = new URL(exchange.request.url);
    if (document.route(exchange.request.method, url.pathname).ok)
      votes.set(url.origin, (votes.get(url.origin) ?? 0) + 1);
  }
  return [...votes].sort((a, b) => b[1] - a[1])[0]?.[0];
}

const underBase = (exchange: Exchange, base: string) => {
  const url = exchange.request.url;
  return url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`);
};

interface Checked {
  facts: RecordingFacts;
  findings: SourcedFinding[];
  session: ReturnType<typeof createRecordingSession>;
}

async function checkRecording(options: CheckRecordingsOptions, recording: Recording): Promise<Checked> {
  const base = (
    options.baseUrl ??
    recording.upstream ??
    inferBase(options.document, recording.exchanges) ??
    ''
  ).replace(/\/+$/, '');
  const basePath = base === '' ? '' : basePathOf(base);
  const session = createRecordingSession({
    document: options.document,
    basePath,
    keepPersonal: options.keepPersonal,
    pseudonymKey: randomBytes(32),
  });
  const api = base === '' ? [] : recording.exchanges.filter((exchange) => underBase(exchange, base));
  let errors = 0;
  for (const [index, exchange] of api.entries()) {
    try {
      await session.accept(exchange);
    } catch (error) {
      errors += 1;
      options.onError?.(recording.file, index, (error as Error).message);
    }
  }
  const counts = session.checks.counts();
  return {
    session,
    findings: session.findings().map((finding) => ({ finding, file: recording.file })),
    facts: {
      file: recording.file,
      creator: recording.creator,
      exchanges: recording.exchanges.length + recording.unanswered,
      notChecked: {
        unanswered: recording.unanswered,
        'other hosts': recording.exchanges.length - api.length,
        'control API': counts.control,
        'proxy failures': counts.upstreamFailures,
        'left out: an internal error': errors,
      },
    },
  };
}

/** The report of `files`; throws HarFileError for a file that is not a HAR. */
export async function checkRecordings(options: CheckRecordingsOptions): Promise<DriftReport> {
  const recordings = await readRecordings(options.files);
  const checked: Checked[] = [];
  for (const recording of recordings) checked.push(await checkRecording(options, recording));
  const operations = new Map<string, number>();
  for (const { session } of checked)
    for (const [operation, count] of session.checks.operations())
      operations.set(operation, (operations.get(operation) ?? 0) + count);
  return buildDriftReport({
    documentVersion: options.document.version,
    recordings: checked.map((c) => c.facts),
    checked: checked.reduce((sum, c) => {
      const counts = c.session.checks.counts();
      return sum + counts.exchanges - counts.control - counts.upstreamFailures;
    }, 0),
    operations,
    findings: checked.flatMap((c) => c.findings),
    allowances: options.allowances,
    judge: checked.flatMap((c) => c.session.checks.judge()),
  });
}
