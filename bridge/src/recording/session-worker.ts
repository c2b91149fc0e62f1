/**
 * The recording's worker thread: redaction, checks and the HAR file run here, so the proxy's thread
 * only forwards (a page of 100 records costs a few milliseconds to check, which a client must not
 * wait for). Messages in: `exchange`, then `close`; out: `done` per exchange (with its size), `finding`
 * as they come, `error` for an exchange an internal error kept out (the recording goes on), `report`
 * at the end, `failed` when the recording cannot start.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Finding } from '../checks/finding.js';
import { loadBridgeDocument } from '../document/bridge-document.js';
import { decodedExchange } from '../exchange/exchange.js';
import { type HarWriter, openHarWriter } from '../har/har-writer.js';
import type { Allowance } from '../report/allow-list.js';
import { buildDriftReport } from '../report/drift-report.js';
import { arrivedExchange, type TravellingExchange } from './exchange-message.js';
import { createRecordingSession } from './recording-session.js';
import { type ThreadPriority, yieldThisThread } from './thread-priority.js';

export interface SessionWorkerData {
  upstream: string;
  basePath: string;
  harPath?: string;
  keepPersonal: boolean;
  pseudonymKey: Uint8Array;
  allowances: Allowance[];
  version: string;
  /** What a content-coded body may inflate to before it is left out (the proxy's recording cap). */
  maxRecordedBytes: number;
}

export type ToWorker =
  | { type: 'exchange'; exchange: TravellingExchange; bytes: number }
  | { type: 'close'; dropped: number };
export type FromWorker =
  /** Started, at the priority the thread could take. */
  | { type: 'ready'; priority: ThreadPriority }
  | { type: 'done'; bytes: number }
  | { type: 'finding'; finding: Finding }
  /** One exchange could not be checked or recorded (an internal error); the recording goes on. */
  | { type: 'error'; message: string }
  | { type: 'report'; report: ReturnType<typeof buildDriftReport> }
  | { type: 'failed'; message: string };

const port = parentPort!;
const data = workerData as SessionWorkerData;
const post = (message: FromWorker) => port.postMessage(message);

async function main(): Promise<void> {
  const document = loadBridgeDocument();
  let har: HarWriter | undefined;
  if (data.harPath) {
    har = await openHarWriter(data.harPath, {
      version: '1.2',
      creator: { name: 'ofkit', version: data.version },
      _ofkit: { upstream: data.upstream, personal_data: data.keepPersonal ? 'kept' : 'redacted' },
    });
  }
  const session = createRecordingSession({
    document,
    basePath: data.basePath,
    keepPersonal: data.keepPersonal,
    pseudonymKey: Buffer.from(data.pseudonymKey),
    ...(har && { har }),
    onFinding: (finding) => post({ type: 'finding', finding }),
  });
  let queue: Promise<void> = Promise.resolve();
  /** Exchanges an internal error kept out of the checks or the recording: counted, never silent. */
  let errors = 0;
  port.on('message', (message: ToWorker) => {
    if (message.type === 'exchange') {
      queue = queue
        .then(() => session.accept(decodedExchange(arrivedExchange(message.exchange), data.maxRecordedBytes)))
        .catch((error: Error) => {
          errors += 1;
          post({ type: 'error', message: error.message });
        })
        .then(() => post({ type: 'done', bytes: message.bytes }));
      return;
    }
    queue = queue.then(async () => {
      await har?.close();
      const counts = session.checks.counts();
      const file = data.harPath ?? '(not recorded)';
      post({
        type: 'report',
        report: buildDriftReport({
          documentVersion: document.version,
          recordings: [
            {
              file,
              creator: `ofkit ${data.version}`,
              exchanges: counts.exchanges + message.dropped,
              notChecked: {
                'control API': counts.control,
                'proxy failures': counts.upstreamFailures,
                'left out: the checks fell behind': message.dropped,
                'left out: an internal error': errors,
              },
            },
          ],
          checked: counts.exchanges - counts.control - counts.upstreamFailures,
          operations: session.checks.operations(),
          findings: session.findings().map((finding) => ({ finding, file })),
          allowances: data.allowances,
          judge: session.checks.judge(),
        }),
      });
    });
  });
  post({ type: 'ready', priority });
}

const priority = yieldThisThread();
main().catch((error: Error) => post({ type: 'failed', message: error.message }));
