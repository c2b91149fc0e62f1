/**
 * The Redis store's bounded logs (Store.appendLog, readLog, clearLogs). Keys, beside the tenant's
 * others (redis-lua-prelude.ts) and outside its snapshot generations:
 *
 *   {P}log:{name}   STREAM of the log's entries, id `0-<seq>`, one field `e` = the entry's JSON text
 *   {P}logs         HASH `seq` (the tenant's log numbering), `<name>:size` (bytes kept), `<name>:dropped`
 *
 * Each step is one script over keys of the tenant's hash tag only. An append is numbered when Redis
 * runs it, so the order of the numbers is the order the appends reached Redis from every replica.
 */
import { type LuaScript, luaScript, type RedisConnection } from './redis-connection.js';
import { keyPart, tenantBase } from './redis-key-names.js';
import type { LogBounds, LoggedEntry, LogPage } from './store.js';

/** KEYS = stream, hash; ARGV = entry, most entries, most bytes, log name. Returns the entry's number. */
const APPEND = luaScript(`
local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
local size = #ARGV[1]
local most, budget = tonumber(ARGV[2]), tonumber(ARGV[3])
if size > budget or most <= 0 then
  redis.call('HINCRBY', KEYS[2], ARGV[4] .. ':dropped', 1)
  return seq
end
redis.call('XADD', KEYS[1], '0-' .. seq, 'e', ARGV[1])
local total = redis.call('HINCRBY', KEYS[2], ARGV[4] .. ':size', size)
local count = redis.call('XLEN', KEYS[1])
local dropped = 0
while count > most or total > budget do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  redis.call('XDEL', KEYS[1], oldest[1])
  total = total - #oldest[2][2]
  count = count - 1
  dropped = dropped + 1
end
if dropped > 0 then
  redis.call('HSET', KEYS[2], ARGV[4] .. ':size', total)
  redis.call('HINCRBY', KEYS[2], ARGV[4] .. ':dropped', dropped)
end
return seq
`);

/** KEYS = stream, hash; ARGV = after, limit, log name. Returns {{id, {'e', entry}}...}, dropped. */
const READ = luaScript(`
local rows = redis.call('XRANGE', KEYS[1], '(0-' .. ARGV[1], '+', 'COUNT', ARGV[2])
return {rows, redis.call('HGET', KEYS[2], ARGV[3] .. ':dropped') or '0'}
`);

/** KEYS = the hash; ARGV = the tenant's base. Deletes every log the hash names, then the hash. */
const CLEAR = luaScript(`
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  local name = string.match(field, '^(.*):size$')
  if name then redis.call('UNLINK', ARGV[1] .. 'log:' .. name) end
end
redis.call('DEL', KEYS[1])
return 1
`);

type StreamRow = [string, [string, string]];

export class RedisLogs {
  /** Set once the scripts are in Redis's cache; appends wait for it only the first time. */
  private loading: Promise<void> | undefined;
  private loaded = false;

  constructor(
    private readonly connection: RedisConnection,
    private readonly prefix: string,
  ) {}

  append(tenant: string, log: string, entry: string, bounds: LogBounds): Promise<number> {
    const { stream, hash } = this.keys(tenant, log);
    const args = [entry, String(bounds.entries), String(bounds.size), keyPart(log)];
    return this.run(APPEND, [stream, hash], args) as Promise<number>;
  }

  async read(tenant: string, log: string, after: number, limit: number): Promise<LogPage> {
    if (limit <= 0) return { entries: [], dropped: Number(await this.dropped(tenant, log)) };
    const { stream, hash } = this.keys(tenant, log);
    const args = [String(after), String(limit), keyPart(log)];
    const [rows, dropped] = (await this.run(READ, [stream, hash], args)) as [StreamRow[], string];
    const entries: LoggedEntry[] = rows.map(([id, fields]) => ({
      seq: Number(id.slice(id.indexOf('-') + 1)),
      entry: fields[1],
    }));
    return { entries, dropped: Number(dropped) };
  }

  async clear(tenant: string): Promise<void> {
    const base = tenantBase(this.prefix, tenant);
    await this.run(CLEAR, [`${base}logs`], [base]);
  }

  private dropped(tenant: string, log: string): Promise<unknown> {
    const { hash } = this.keys(tenant, log);
    return this.connection.command(['HGET', hash, `${keyPart(log)}:dropped`]);
  }

  private keys(tenant: string, log: string) {
    const base = tenantBase(this.prefix, tenant);
    return { stream: `${base}log:${keyPart(log)}`, hash: `${base}logs` };
  }

  /**
   * Commands on one connection run in the order they are sent, which keeps a tenant's appends in
   * order, unless a script is missing from Redis's cache and is re-sent after the next command: so
   * the scripts are loaded first, once, and the first calls wait for that.
   */
  private run(script: LuaScript, keys: string[], args: string[]): Promise<unknown> {
    if (this.loaded) return this.connection.run(script, keys, args);
    this.loading ??= this.load();
    return this.loading.then(() => this.connection.run(script, keys, args));
  }

  private async load(): Promise<void> {
    try {
      for (const script of [APPEND, READ, CLEAR])
        await this.connection.command(['SCRIPT', 'LOAD', script.source]);
      this.loaded = true;
    } catch (error) {
      this.loading = undefined;
      throw error;
    }
  }
}
