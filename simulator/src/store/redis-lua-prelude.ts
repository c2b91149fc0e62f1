/**
 * The Lua scripts of the Redis store: each decision is one script, so it is one atomic step in Redis
 * across every replica. Key layout (redis-key-names.ts builds the same names in TypeScript):
 *
 *   {P}gen                     current generation of the tenant's snapshot state (absent: none yet)
 *   {P}gens                    generation counter (never reset, so a dropped generation's number is never reused)
 *   {P}g{N}:c:{coll}:rec       HASH id -> record JSON
 *   {P}g{N}:c:{coll}:ord       ZSET id scored by insertion order (from {P}g{N}:order)
 *   {P}g{N}:c:{coll}:lnk       HASH id -> link (the link index's reverse map)
 *   {P}g{N}:c:{coll}:by:{link} ZSET id scored by insertion order (the link index)
 *   {P}g{N}:w:{key}            ZSET of sliding-window hits scored by virtual time
 *   {P}g{N}:colls, :wins       ZSETs of collection names and window keys, in order of creation
 *   {P}g{N}:order              counter of the order scores
 *   {P}g{N}:writes             counter of the changes to the generation's records (a page read in two
 *                              steps checks that none came between them: redis-store.ts listSlice)
 *   {P}seq                     HASH name -> counter (nextSequence)
 *   {P}jobs:due / :rec / :ids  ZSET member scored by `at` / HASH member -> job JSON / HASH id -> member
 *   {P}jobs:lease              HASH id -> "<token>:<expires, store ms>:<owner>" of the leased jobs
 *   {P}leases                  lease token counter (never reset: a token is never given twice)
 *   <prefix>tenants            SET of the tenants with state, written by its own commands (never inside a
 *                              tenant's script: on a cluster it lives in another slot)
 *
 * {P} is `<prefix>{<tenant>}:`: the hash tag keeps one tenant on one cluster slot, and no script touches
 * a key outside it. Scripts build the generation's key names from ARGV (they depend on the generation
 * read inside the script); every such key shares the tenant's hash tag. Collection names, links and
 * window keys arrive URI-encoded.
 *
 * Common arguments: KEYS[1] = {P}gen; ARGV[1] = {P}, ARGV[2] = the tenant. Virtual time always comes
 * in ARGV and decides every rule; no key has a TTL (a TTL follows Redis's wall clock and would forget
 * hits a frozen virtual clock still counts: DELETE-RATE-LIMIT). Redis's own clock (TIME) is read for one
 * thing only, job leases: how long a replica may hold a job before another may take it is liveness,
 * not a rule.
 */

import { type LuaScript, luaScript } from './redis-connection.js';

const PRELUDE = `
local base = ARGV[1]
local function generation(create)
  local gen = redis.call('GET', KEYS[1])
  if not gen then
    if not create then return nil end
    gen = redis.call('INCR', base .. 'gens')
    redis.call('SET', KEYS[1], gen)
  end
  return base .. 'g' .. gen .. ':'
end
local function collection(g, name) return g .. 'c:' .. name .. ':' end
-- HMGET in slices: unpack() of a whole large collection would overflow Lua's C stack.
local function hmget_all(key, ids)
  local out = {}
  for i = 1, #ids, 4000 do
    local part = redis.call('HMGET', key, unpack(ids, i, math.min(i + 3999, #ids)))
    for j = 1, #part do out[#out + 1] = part[j] end
  end
  return out
end
-- A window of a collection's order (by_link '1': of the link's index): the collection's key start, the
-- list's length and the ids at [start, start + count).
local function slice_ids(g, name, link, by_link, start, count)
  local c = collection(g, name)
  local index = c .. 'ord'
  if by_link == '1' then index = c .. 'by:' .. link end
  local total = redis.call('ZCARD', index)
  local first, size = math.max(0, tonumber(start)), tonumber(count)
  if size <= 0 or first >= total then return c, total, {} end
  return c, total, redis.call('ZRANGE', index, first, first + size - 1)
end
local function unindex(c, id)
  redis.call('ZREM', c .. 'ord', id)
  local link = redis.call('HGET', c .. 'lnk', id)
  if link then
    redis.call('HDEL', c .. 'lnk', id)
    redis.call('ZREM', c .. 'by:' .. link, id)
  end
end
-- Every change of a record counts here, so a read in two steps can tell that nothing changed between.
local function touched(g) redis.call('INCR', g .. 'writes') end
local function remove(g, c, id)
  if redis.call('HDEL', c .. 'rec', id) == 0 then return false end
  unindex(c, id)
  touched(g)
  return true
end
-- Inserts or replaces a record; a put, new id or not, goes to the end of the order (as in memory).
local function put_record(g, name, id, json, link, has_link)
  local c = collection(g, name)
  unindex(c, id)
  touched(g)
  local n = redis.call('INCR', g .. 'order')
  redis.call('HSET', c .. 'rec', id, json)
  redis.call('ZADD', c .. 'ord', n, id)
  if has_link == '1' then
    redis.call('HSET', c .. 'lnk', id, link)
    redis.call('ZADD', c .. 'by:' .. link, n, id)
  end
  -- Collections in the order of their first record, as the memory store exports them.
  redis.call('ZADD', g .. 'colls', 'NX', n, name)
end
local function delete_by_link(g, name, link)
  local c = collection(g, name)
  local index = c .. 'by:' .. link
  local ids = redis.call('ZRANGE', index, 0, -1)
  for _, id in ipairs(ids) do
    redis.call('HDEL', c .. 'rec', id)
    redis.call('ZREM', c .. 'ord', id)
    redis.call('HDEL', c .. 'lnk', id)
  end
  redis.call('DEL', index)
  if #ids > 0 then touched(g) end
  return #ids
end
-- A hit at virtual time now counts while at > floor (now - windowMs); {allowed 1|0, count, oldest}.
local function hit_window(g, key, now, floor, limit)
  local window = g .. 'w:' .. key
  -- Windows in the order of their first hit, as the memory store exports them.
  if not redis.call('ZSCORE', g .. 'wins', key) then
    redis.call('ZADD', g .. 'wins', redis.call('INCR', g .. 'order'), key)
  end
  redis.call('ZREMRANGEBYSCORE', window, '-inf', floor)
  local count = redis.call('ZCARD', window)
  if count >= tonumber(limit) then
    local oldest = redis.call('ZRANGE', window, 0, 0, 'WITHSCORES')
    return {0, count, oldest[2] or now}
  end
  -- Members must be unique (two hits in one millisecond both count): the order counter makes them so.
  redis.call('ZADD', window, now, now .. ':' .. redis.call('INCR', g .. 'order'))
  return {1, count + 1, now}
end
-- A job's member is "<order>:<id>": the id follows the first colon.
local function job_id(member) return string.sub(member, string.find(member, ':', 1, true) + 1) end
local function remove_job(member, id)
  redis.call('ZREM', base .. 'jobs:due', member)
  redis.call('HDEL', base .. 'jobs:rec', member)
  redis.call('HDEL', base .. 'jobs:ids', id)
  redis.call('HDEL', base .. 'jobs:lease', id)
end
`;

/** A script: the prelude (generation lookup, collection helpers) then the body. */
export function script(body: string): LuaScript {
  return luaScript(`${PRELUDE}\n${body}`);
}
