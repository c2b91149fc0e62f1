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

/**
 * KEYS = the hash; ARGV = the tenant's base, then per entry: log name, entry, most entries, most bytes.
 * Appends the entries in their order; returns their numbers.
 */
const APPEND = luaScript(`
local numbers = {}
for i = 2, #ARGV, 4 do
  local name, entry, most, budget = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2]), tonumber(ARGV[i + 3])
  local list = ARGV[1] .. 'log:' .. name
  local seq = redis.call('HINCRBY', KEYS[1], 'seq', 1)
  numbers[#numbers + 1] = seq
  local size = #entry
  if size > budget or most <= 0 then
    redis.call('HINCRBY', KEYS[1], name .. ':dropped', 1)
  else
    local count = redis.call('RPUSH', list, seq .. ':' .. entry)
    local total = redis.call('HINCRBY', KEYS[1], name .. ':size', size)
    local dropped = 0
    while count > most or total > budget do
      local oldest = redis.call('LPOP', list)
      total = total - (#oldest - #string.match(oldest, '^%d+:'))
      count = count - 1
      dropped = dropped + 1
    end
    if dropped > 0 then
      redis.call('HSET', KEYS[1], name .. ':size', total)
      redis.call('HINCRBY', KEYS[1], name .. ':dropped', dropped)
    end
  end
end
return numbers
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

interface AppendBatch {
  /** Four arguments per entry (APPEND's). */
  args: string[];
  waiting: { resolve: (seq: number) => void; reject: (error: unknown) => void }[];
}

export class RedisLogs {
  /** Per tenant, the scripts Redis has run for it (so the tenant's node has them cached). */
  private readonly cached = new Map<string, Set<LuaScript>>();
  /** Per tenant, the call its next calls wait for while a script may still be missing. */
  private readonly waiting = new Map<string, Promise<unknown>>();
  /** Per tenant, the appends made in this turn, not sent yet. */
  private readonly batches = new Map<string, AppendBatch>();

  constructor(
    private readonly connection: RedisConnection,
    private readonly prefix: string,
  ) {}

  /**
   * Appends of one tenant made together (requests answered in one turn of the event loop) go to Redis
   * as one script, in the order they were made, when the current turn's work is done; reads and clears
   * send them first, so they still come before every later call.
   */
  append(tenant: string, log: string, entry: string, bounds: LogBounds): Promise<number> {
    let batch = this.batches.get(tenant);
    if (batch === undefined) {
      batch = { args: [], waiting: [] };
      this.batches.set(tenant, batch);
      queueMicrotask(() => this.flush(tenant));
    }
    batch.args.push(keyPart(log), entry, String(bounds.entries), String(bounds.size));
    const { waiting } = batch;
    return new Promise<number>((resolve, reject) => void waiting.push({ resolve, reject }));
  }

  /** Sends the tenant's waiting appends, if any, as one script. */
  private flush(tenant: string): void {
    const batch = this.batches.get(tenant);
    if (batch === undefined) return;
    this.batches.delete(tenant);
    const base = tenantBase(this.prefix, tenant);
    this.run(APPEND, tenant, [`${base}logs`], [base, ...batch.args]).then(
      (numbers) => {
        for (const [index, { resolve }] of batch.waiting.entries()) resolve((numbers as number[])[index]!);
      },
      (error: unknown) => {
        for (const { reject } of batch.waiting) reject(error);
      },
    );
  }

  async read(tenant: string, log: string, after: number, limit: number): Promise<LogPage> {
    this.flush(tenant);
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
    this.flush(tenant);
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
