/**
 * `ofkit record` and `ofkit proxy` as a library: the transparent proxy in front of an implementation,
 * each exchange redacted, checked and (with a HAR path) appended to the recording once its answer went
 * out, in arrival order, in a worker thread; `close()` stops it and returns the session's drift report.
 */
import { randomBytes } from 'node:crypto';
import { MAX_RECORDED_BYTES } from '../../../openapi/http/content-coding.js';
import type { Finding } from '../checks/finding.js';
import { basePathOf } from '../exchange/api-path.js';
import { decodedExchange, type Exchange, type ProxiedExchange } from '../exchange/exchange.js';
import { startRecordingProxy } from '../proxy/recording-proxy.js';
import { createUpstreamClient } from '../proxy/upstream-client.js';
import type { Allowance } from '../report/allow-list.js';
import type { DriftReport } from '../report/drift-report.js';
import type { ThreadPriority } from './thread-priority.js';
import { startWorkerSession } from './worker-session.js';

export interface RecorderOptions {
  /** The implementation's base URL (no trailing slash). */
  upstream: string;
  /** Default 0 (a free port). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Write the recording here (HAR 1.2); without it the proxy only checks. */
  harPath?: string;
  keepPersonal?: boolean;
  allowances?: readonly Allowance[];
  /** Seconds to wait for the implementation (default 60). */
  timeoutSeconds?: number;
  /** Bodies above this many bytes are passed on but not recorded (default 16 MiB). */
  maxRecordedBytes?: number;
  /** Where the CA bundle and the egress proxy are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** The pseudonyms' key (default: 32 random bytes). */
  pseudonymKey?: Buffer;
  /** The version the HAR's `creator` names. */
  version?: string;
  /** Told of each finding as its exchange is checked (in the recording's worker; never awaited). */
  onFinding?: (finding: Finding) => void;
  /** Told once when the checks fall behind and exchanges start being left out. */
  onFallingBehind?: () => void;
  /** Told of an exchange an internal error kept out of the checks or the recording. */
  onError?: (message: string) => void;
  /** Memory the exchanges waiting for the checks may hold (default 256 MiB). */
  maxPendingBytes?: number;
  /** Told of every answer the proxy gave itself because the implementation failed. */
  onUpstreamFailure?: (exchange: Exchange) => void;
  /** Host names the proxy answers besides localhost, *.localhost and IP literals (`--allowed-host`). */
  allowedHosts?: readonly string[];
}

export interface Recorder {
  /** The proxy's base URL, e.g. http://127.0.0.1:4020. */
  readonly url: string;
  /** What the proxy trusts and which egress proxy it uses. */
  readonly trust: string;
  /**
   * The scheduling policy the recording's checks run under: SCHED_BATCH, giving way to the forwarding
   * thread when it wakes, or unchanged where `chrt` is missing or not allowed (thread-priority.ts).
   */
  readonly checksPriority: ThreadPriority;
  /** Resolves once every exchange so far is checked and recorded. */
  idle(): Promise<void>;
  /** Stops the proxy, finishes the recording and returns the session's drift report. */
  close(): Promise<DriftReport>;
}

/**
 * The Node flags a recorder's process should start with (`ofkit record` and `ofkit proxy` relaunch
 * themselves with them). `--single-threaded-gc`: V8 collects each heap on the thread that uses it. The
 * worker checks a page of records in a few milliseconds and leaves its garbage behind; with V8's
 * parallel and concurrent collection that garbage is collected by helper threads at normal priority,
 * which then compete with the forwarding thread for the CPUs, where the worker itself gives way
 * (thread-priority.ts). Measured with `npm run bench`'s row: the p99 `ofkit record` adds falls by
 * about 1.5-2 ms; the forwarding thread's own collections are as fast either way.
 */
export const RECORDER_NODE_FLAGS: readonly string[] = ['--single-threaded-gc'];

/** Exchanges waiting for the checks may hold this much before new ones are left out (and counted). */
const MAX_PENDING_BYTES = 256 * 1_048_576;

export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const upstream = options.upstream.replace(/\/+$/, '');
  const keepPersonal = options.keepPersonal ?? false;
  const maxRecordedBytes = options.maxRecordedBytes ?? MAX_RECORDED_BYTES;
  const client = await createUpstreamClient({ env: options.env ?? process.env });
  const session = await startWorkerSession({
    upstream,
    basePath: basePathOf(upstream),
    ...(options.harPath && { harPath: options.harPath }),
    keepPersonal,
    pseudonymKey: options.pseudonymKey ?? randomBytes(32),
    allowances: [...(options.allowances ?? [])],
    version: options.version ?? 'dev',
    maxRecordedBytes,
    maxPendingBytes: options.maxPendingBytes ?? MAX_PENDING_BYTES,
    ...(options.onFinding && { onFinding: options.onFinding }),
    ...(options.onFallingBehind && { onFallingBehind: options.onFallingBehind }),
    ...(options.onError && { onError: options.onError }),
  }).catch(async (error) => {
    await client.close();
    throw error;
  });
  const onExchange = (exchange: ProxiedExchange) => {
    if (exchange.upstreamFailure) options.onUpstreamFailure?.(decodedExchange(exchange, maxRecordedBytes));
    session.accept(exchange);
  };
  const host = options.host ?? '127.0.0.1';
  const proxy = await startRecordingProxy(
    {
      upstream,
      client,
      timeoutSeconds: options.timeoutSeconds ?? 60,
      maxRecordedBytes,
      onExchange,
      ...(options.allowedHosts && { allowedHosts: options.allowedHosts }),
    },
    options.port ?? 0,
    host,
  ).catch(async (error) => {
    await session.close().catch(() => undefined);
    await client.close();
    throw error;
  });
  return {
    url: proxy.url,
    trust: client.description,
    checksPriority: session.priority,
    idle: () => session.idle(),
    async close() {
      await proxy.close();
      await client.close();
      return session.close();
    },
  };
}
