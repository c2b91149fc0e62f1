/**
 * The proxy's side of the recording's worker thread (session-worker.ts): each exchange is posted as
 * soon as its answer went out, never awaited. Memory is bounded: while the exchanges waiting for the
 * worker hold more than `maxPendingBytes`, new ones are left out of the recording and counted, and the
 * report says so (a recording is never silently partial).
 */
import { type MessagePort, Worker } from 'node:worker_threads';
import type { Finding } from '../checks/finding.js';
import type { ProxiedExchange } from '../exchange/exchange.js';
import type { DriftReport } from '../report/drift-report.js';
import { travellingExchange } from './exchange-message.js';
import type { FromWorker, SessionWorkerData, ToWorker } from './session-worker.js';
import type { ThreadPriority } from './thread-priority.js';

export interface WorkerSession {
  /** The priority the checks' thread took (thread-priority.ts). */
  readonly priority: ThreadPriority;
  accept(exchange: ProxiedExchange): void;
  /** Resolves once every exchange posted so far is checked and recorded. */
  idle(): Promise<void>;
  /** Finishes the recording and returns the report. */
  close(): Promise<DriftReport>;
}

export interface WorkerSessionOptions extends SessionWorkerData {
  maxPendingBytes: number;
  onFinding?: (finding: Finding) => void;
  /** Told once when exchanges start being left out (the checks fell behind). */
  onFallingBehind?: () => void;
  /** Told of an exchange an internal error kept out of the checks or the recording. */
  onError?: (message: string) => void;
}

/** The worker module; in a clone run through tsx it is TypeScript, and tsx must load it. */
function spawnWorker(data: SessionWorkerData): Worker {
  const entry = new URL(
    `./session-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
    import.meta.url,
  );
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { workerData: data });
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(entry.href)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`), { workerData: data });
}

function sizeOf(exchange: ProxiedExchange): number {
  let size = 2048;
  for (const chunk of exchange.request.bodyChunks ?? []) size += chunk.byteLength;
  for (const chunk of exchange.response.bodyChunks ?? []) size += chunk.byteLength;
  return size;
}

/**
 * Posts an exchange to the worker, the answer's chunks that own their memory moved (exchange-message.ts).
 * Memory something marked untransferable is copied instead: Node 20 copies it by itself, Node 22 refuses
 * the whole message, which then goes again with every chunk copied.
 */
export function postExchange(
  port: Pick<MessagePort, 'postMessage'>,
  exchange: ProxiedExchange,
  bytes: number,
): void {
  const travelling = travellingExchange(exchange);
  try {
    port.postMessage(
      { type: 'exchange', exchange: travelling.exchange, bytes } satisfies ToWorker,
      travelling.transfer,
    );
  } catch {
    port.postMessage({ type: 'exchange', exchange, bytes } satisfies ToWorker);
  }
}

export async function startWorkerSession(options: WorkerSessionOptions): Promise<WorkerSession> {
  const { maxPendingBytes, onFinding, onFallingBehind, onError, ...data } = options;
  const worker = spawnWorker(data);
  let pending = 0;
  let posted = 0;
  let done = 0;
  let dropped = 0;
  let failure: Error | undefined;
  let idleWaiters: (() => void)[] = [];
  let reportWaiter: ((report: DriftReport) => void) | undefined;
  let failWaiter: ((error: Error) => void) | undefined;
  const ready = new Promise<ThreadPriority>((resolve, reject) => {
    worker.on('message', (message: FromWorker) => {
      if (message.type === 'ready') resolve(message.priority);
      else if (message.type === 'finding') onFinding?.(message.finding);
      else if (message.type === 'error') onError?.(message.message);
      else if (message.type === 'done') {
        pending -= message.bytes;
        done += 1;
        if (done === posted) for (const wake of idleWaiters.splice(0)) wake();
      } else if (message.type === 'report') reportWaiter?.(message.report);
      else {
        failure = new Error(`the recording failed: ${message.message}`);
        reject(failure);
        failWaiter?.(failure);
      }
    });
    worker.once('error', (error) => {
      failure = error;
      reject(error);
      failWaiter?.(error);
    });
  });
  const priority = await ready;
  return {
    priority,
    accept(exchange) {
      const bytes = sizeOf(exchange);
      if (pending + bytes > maxPendingBytes) {
        if (dropped === 0) onFallingBehind?.();
        dropped += 1;
        return;
      }
      pending += bytes;
      posted += 1;
      postExchange(worker, exchange, bytes);
    },
    idle: () => (done === posted ? Promise.resolve() : new Promise<void>((wake) => idleWaiters.push(wake))),
    async close() {
      if (failure) {
        await worker.terminate();
        throw failure;
      }
      const report = new Promise<DriftReport>((resolve, reject) => {
        reportWaiter = resolve;
        failWaiter = reject;
      });
      worker.postMessage({ type: 'close', dropped } satisfies ToWorker);
      try {
        return await report;
      } finally {
        idleWaiters = [];
        await worker.terminate();
      }
    },
  };
}
