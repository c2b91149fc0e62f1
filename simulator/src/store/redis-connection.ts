/**
 * One node-redis connection of the Redis store: connects with a clear error when Redis cannot be
 * reached (the URL, what failed), runs the store's Lua scripts by SHA1 (EVALSHA, loading a script with
 * EVAL the first time a server lacks it), and closes.
 */
import { createHash } from 'node:crypto';
import { createClient } from 'redis';
import { printableUrl, redisUrlProblem } from './redis-url.js';

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

type Client = ReturnType<typeof createClient>;

export class RedisConnection {
  private readonly client: Client;
  private ready = false;

  constructor(
    private readonly url: string,
    onError: (error: Error) => void = () => {},
  ) {
    const problem = redisUrlProblem(url);
    if (problem !== undefined) throw new RedisStoreError(problem);
    this.client = createClient({
      url,
      // Fail fast while a request waits on a lost connection (the request gets a 500) instead of
      // queueing it until Redis returns.
      disableOfflineQueue: true,
      socket: {
        connectTimeout: 5000,
        // The first connection fails at once (connect() rejects with the cause); a connection lost
        // later is retried with a growing delay, up to 2 s.
        reconnectStrategy: (retries) => (this.ready ? Math.min(50 * 2 ** retries, 2000) : false),
      },
    });
    // Without a listener, node-redis's 'error' event would end the process without a message. A lost
    // connection is reported once, not at every retry, until it is back.
    let reported = false;
    this.client.on('error', (error: Error) => {
      if (!this.ready || reported) return;
      reported = true;
      onError(new RedisStoreError(`Redis at ${printableUrl(url)}: ${reason(error)} (reconnecting)`));
    });
    this.client.on('ready', () => {
      reported = false;
    });
  }

  async connect(): Promise<void> {
    try {
      await this.client.connect();
    } catch (error) {
      throw new RedisStoreError(`cannot connect to Redis at ${printableUrl(this.url)}: ${reason(error)}`);
    }
    this.ready = true;
  }

  /** Runs a script: one atomic step in Redis. */
  async run(script: LuaScript, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.client.sendCommand(['EVALSHA', script.sha, ...tail]);
    } catch (error) {
      // A fresh or flushed server lacks the script: EVAL runs it and caches it for the next EVALSHA.
      if (!String((error as Error).message).startsWith('NOSCRIPT')) throw error;
      return this.client.sendCommand(['EVAL', script.source, ...tail]);
    }
  }

  /** One plain command (reads and writes that decide nothing: import's bulk writes, counts). */
  command(args: readonly string[]): Promise<unknown> {
    return this.client.sendCommand([...args]);
  }

  async close(): Promise<void> {
    this.ready = false;
    if (this.client.isOpen) await this.client.close();
  }
}
