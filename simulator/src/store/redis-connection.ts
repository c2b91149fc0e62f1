/**
 * The Redis store's connection (one Redis or a cluster): connects within a bound with a clear error when
 * Redis cannot be used (the URL, what failed), runs the store's Lua scripts by SHA1 (EVALSHA, loading a
 * script with EVAL the first time a server lacks it), turns a failure while serving into a
 * StoreFailure (unreachable, or no answer in time: effect unknown), and closes.
 */
import { createHash } from 'node:crypto';
import {
  ClientClosedError,
  ClientOfflineError,
  ConnectionTimeoutError,
  DisconnectsClientError,
  ReconnectStrategyError,
  RootNodesUnavailableError,
  SocketClosedUnexpectedlyError,
  TimeoutError,
} from 'redis';
import { createSender } from './redis-clients.js';
import { SilentNodeError } from './redis-cluster-sender.js';
import type { RedisSender } from './redis-sender.js';
import {
  parseRedisUrl,
  printableUrl,
  type RedisTarget,
  type RedisTimeouts,
  RedisUrlProblem,
} from './redis-url.js';
import { StoreFailure } from './store-failure.js';

/** Redis cannot be used: the URL (without its password) and what failed, on one line. */
export class RedisStoreError extends Error {
  override name = 'RedisStoreError';
}

/** A Lua script and its SHA1, computed once. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

function reason(error: unknown): string {
  const { code, message, errors } = error as { code?: string; message?: string; errors?: unknown[] };
  // Connecting to "localhost" tries each address and fails with an AggregateError without a message.
  if (!message && errors?.[0]) return reason(errors[0]);
  if (code && message?.includes(code)) return message;
  return [code, message].filter((part) => part).join(': ') || String(error);
}

const UNREACHABLE = [
  ClientOfflineError,
  ClientClosedError,
  SocketClosedUnexpectedlyError,
  ConnectionTimeoutError,
  RootNodesUnavailableError,
  ReconnectStrategyError,
  DisconnectsClientError,
];

/** Replies of a cluster (or a server) that cannot serve the slot right now: a failover, a load. */
const NOT_SERVING = /^(CLUSTERDOWN|TRYAGAIN|LOADING|MASTERDOWN|READONLY)\b/;

export class RedisConnection {
  private readonly target: RedisTarget;
  private readonly sender: RedisSender;
  private readonly printable: string;
  private ready = false;

  /** `overrides` win over the URL's options. */
  constructor(
    url: string,
    onError: (error: Error) => void = () => {},
    overrides: Partial<RedisTimeouts> = {},
  ) {
    try {
      const parsed = parseRedisUrl(url);
      const given = Object.entries(overrides).filter(([, value]) => value !== undefined);
      this.target = { ...parsed, timeouts: { ...parsed.timeouts, ...Object.fromEntries(given) } };
    } catch (error) {
      if (error instanceof RedisUrlProblem) throw new RedisStoreError(error.message);
      throw error;
    }
    this.printable = printableUrl(url);
    this.sender = createSender(this.target, () => this.ready);
    // Without a listener, node-redis's 'error' event would end the process without a message. A lost
    // connection is reported once, not at every retry, until it is back.
    let reported = false;
    this.sender.on('error', (error: Error) => {
      if (!this.ready || reported) return;
      reported = true;
      onError(new RedisStoreError(`Redis at ${this.printable}: ${reason(error)} (reconnecting)`));
    });
    this.sender.on('ready', () => {
      reported = false;
    });
  }

  get timeouts(): RedisTimeouts {
    return this.target.timeouts;
  }

  /**
   * Connects and waits for a first answer (PING), both within the connect time-out: a port that accepts
   * connections but never answers is refused as clearly as one that refuses them.
   */
  async connect(): Promise<void> {
    const { connectTimeoutMs } = this.target.timeouts;
    let timer: NodeJS.Timeout | undefined;
    const noAnswer = new RedisStoreError(
      `Redis at ${this.printable} did not answer within ${connectTimeoutMs} ms (connect_timeout_ms): is a Redis server listening there?`,
    );
    const silent = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(noAnswer), connectTimeoutMs);
    });
    const answered = this.sender.connect().then(() => this.sender.send(undefined, ['PING']));
    try {
      await Promise.race([answered, silent]);
    } catch (error) {
      // A connection that failed is closed already (node-redis then refuses a destroy).
      if (this.sender.isOpen) this.sender.destroy();
      if (error instanceof RedisStoreError) throw error;
      if (error instanceof SilentNodeError) throw noAnswer;
      throw new RedisStoreError(`cannot connect to Redis at ${this.printable}: ${reason(error)}`);
    } finally {
      clearTimeout(timer);
    }
    this.ready = true;
  }

  /** A failure while serving, as the API tells it (StoreFailure); other errors (a bug) as they are. */
  private failure(error: unknown): unknown {
    if (error instanceof TimeoutError)
      return new StoreFailure(
        'timeout',
        `Redis at ${this.printable} did not answer within ${this.target.timeouts.commandTimeoutMs} ms (command_timeout_ms)`,
      );
    const notServing = NOT_SERVING.test(String((error as Error)?.message));
    if (notServing || UNREACHABLE.some((kind) => error instanceof kind))
      return new StoreFailure('unavailable', `Redis at ${this.printable} cannot be used: ${reason(error)}`);
    return error;
  }

  /**
   * Sends one command, bounded by the command time-out from the call to the answer. node-redis's own
   * time-out only covers the wait before a command is written; a server that stopped answering (paused,
   * partitioned) would hold the request for as long. A late answer changes nothing here: the caller was
   * told the effect is unknown.
   */
  private async send(firstKey: string | undefined, args: readonly string[]): Promise<unknown> {
    const sent = this.sender.send(firstKey, args);
    // Settled after the time-out, it must not become an unhandled rejection.
    sent.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new TimeoutError()), this.target.timeouts.commandTimeoutMs);
    });
    try {
      return await Promise.race([sent, late]);
    } catch (error) {
      throw this.failure(error);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a script: one atomic step in Redis (on a cluster, on the master of its keys' one slot). */
  async run(script: LuaScript, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.send(keys[0], ['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      // A fresh or flushed server lacks the script: EVAL runs it and caches it for the next EVALSHA.
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return this.send(keys[0], ['EVAL', script.source, ...tail]);
    }
  }

  /** One plain command on one key (`args[1]`): import's bulk writes, counts, the tenant registry. */
  command(args: readonly string[]): Promise<unknown> {
    return this.send(args[1], args);
  }

  async close(): Promise<void> {
    this.ready = false;
    await this.sender.close();
  }
}
