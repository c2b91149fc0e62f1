/** What the Redis store sends its commands through: one Redis or a cluster (redis-clients.ts). */

export interface RedisSender {
  /** Sends `args`; `firstKey` routes it on a cluster (every key of one call shares its slot). */
  send(firstKey: string | undefined, args: readonly string[]): Promise<unknown>;
  connect(): Promise<unknown>;
  /** Waits for the commands sent, then closes. */
  close(): Promise<void>;
  /** Closes at once, failing what is pending (a start that timed out). */
  destroy(): void;
  readonly isOpen: boolean;
  on(event: 'error', listener: (error: Error) => void): void;
  on(event: 'ready', listener: () => void): void;
}
