/**
 * The Redis store's bounded logs (Store.appendLog, readLog, clearLogs). Keys, beside the tenant's
 * others (redis-lua-prelude.ts) and outside its snapshot generations:
 *
 *   {P}log:{name}   LIST of the log's entries, oldest first, each `<seq>:<entry's JSON text>`
 *   {P}logs         HASH `seq` (the tenant's log numbering), `<name>:size` (bytes kept), `<name>:dropped`
 *
 * A list, not a stream: its nodes pack several entries in 8 KB, where a stream spends a node and an
 * allocation rounded up on each entry of a few KB (about a quarter more memory for the same log).
 * Each step is one script over keys of the tenant's hash tag only. An append is numbered when Redis
 * runs it, so the order of the numbers is the order the appends reached Redis from every replica.
 */
import { type LuaScript, luaScript, type RedisConnection } from './redis-connection.js';
import { keyPart, tenantBase } from './redis-key-names.js';
import type { LogBounds, LoggedEntry, LogPage } from './store.js';

/** KEYS = list, hash; ARGV = entry, most entries, most bytes, log name. Returns the entry's number. */
const APPEND = luaScript(`
local seq = redis.call('HINCRBY', KEYS[2], 'seq', 1)
local size = #ARGV[1]
local most, budget = tonumber(ARGV[2]), tonumber(ARGV[3])
if size > budget or most <= 0 then
  redis.call('HINCRBY', KEYS[2], ARGV[4] .. ':dropped', 1)
  return seq
end
local count = redis.call('RPUSH', KEYS[1], seq .. ':' .. ARGV[1])
local total = redis.call('HINCRBY', KEYS[2], ARGV[4] .. ':size', size)
local dropped = 0
while count > most or total > budget do
  local oldest = redis.call('LPOP', KEYS[1])
  total = total - (#oldest - #string.match(oldest, '^%d+:'))
  count = count - 1
  dropped = dropped + 1
end
if dropped > 0 then
  redis.call('HSET', KEYS[2], ARGV[4] .. ':size', total)
  redis.call('HINCRBY', KEYS[2], ARGV[4] .. ':dropped', dropped)
end
return seq
`);

/**
 * KEYS = list, hash; ARGV = after, limit, log name. The first entry numbered after `after` by binary
 * search (the numbers only grow along the list). Returns {entries}, dropped.
 */
const READ = luaScript(`
local after = tonumber(ARGV[1])
local low, high = 0, redis.call('LLEN', KEYS[1])
while low < high do
  local middle = math.floor((low + high) / 2)
  local entry = redis.call('LINDEX', KEYS[1], middle)
  if tonumber(string.match(entry, '^(%d+):')) > after then high = middle else low = middle + 1 end
end
local rows = redis.call('LRANGE', KEYS[1], low, low + tonumber(ARGV[2]) - 1)
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

export class RedisLogs {
  /** Per tenant, the scripts Redis has run for it (so the tenant's node has them cached). */
  private readonly cached = new Map<string, Set<LuaScript>>();
  /** Per tenant, the call its next calls wait for while a script may still be missing. */
  private readonly waiting = new Map<string, Promise<unknown>>();

  constructor(
    private readonly connection: RedisConnection,
    private readonly prefix: string,
  ) {}

  append(tenant: string, log: string, entry: string, bounds: LogBounds): Promise<number> {
    const { list, hash } = this.keys(tenant, log);
    const args = [entry, String(bounds.entries), String(bounds.size), keyPart(log)];
    return this.run(APPEND, tenant, [list, hash], args) as Promise<number>;
  }

  async read(tenant: string, log: string, after: number, limit: number): Promise<LogPage> {
    const { list, hash } = this.keys(tenant, log);
    if (limit <= 0) {
      const dropped = await this.connection.command(['HGET', hash, `${keyPart(log)}:dropped`]);
      return { entries: [], dropped: Number(dropped ?? 0) };
    }
    const args = [String(after), String(limit), keyPart(log)];
    const [rows, dropped] = (await this.run(READ, tenant, [list, hash], args)) as [string[], string];
    const entries: LoggedEntry[] = rows.map((row) => {
      const colon = row.indexOf(':');
      return { seq: Number(row.slice(0, colon)), entry: row.slice(colon + 1) };
    });
    return { entries, dropped: Number(dropped) };
  }

  async clear(tenant: string): Promise<void> {
    const base = tenantBase(this.prefix, tenant);
    await this.run(CLEAR, tenant, [`${base}logs`], [base]);
  }

  private keys(tenant: string, log: string) {
    const base = tenantBase(this.prefix, tenant);
    return { list: `${base}log:${keyPart(log)}`, hash: `${base}logs` };
  }

  /**
   * Commands on one connection run in the order they are sent, which keeps a tenant's appends and
   * clears in order, except that a script missing from Redis's cache is sent again after the commands
   * that followed it. So a tenant's first call of each script is awaited by the tenant's next calls;
   * once Redis has run it, calls go straight out.
   */
  private run(script: LuaScript, tenant: string, keys: string[], args: string[]): Promise<unknown> {
    const before = this.waiting.get(tenant);
    if (before === undefined && this.cached.get(tenant)?.has(script))
      return this.connection.run(script, keys, args);
    const call = (before ?? Promise.resolve()).then(() => this.connection.run(script, keys, args));
    const settled = call.then(
      () => {
        const scripts = this.cached.get(tenant) ?? new Set<LuaScript>();
        scripts.add(script);
        this.cached.set(tenant, scripts);
      },
      () => undefined,
    );
    this.waiting.set(tenant, settled);
    void settled.then(() => {
      if (this.waiting.get(tenant) === settled) this.waiting.delete(tenant);
    });
    return call;
  }
}
