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
 *   {P}seq                     HASH name -> counter (nextSequence)
 *   {P}jobs:due / :rec / :ids  ZSET member scored by `at` / HASH member -> job JSON / HASH id -> member
 *   <prefix>tenants            SET of the tenants with state (outside any tenant's slot: one Redis, not a cluster)
 *
 * {P} is `<prefix>{<tenant>}:`: the hash tag keeps one tenant on one cluster slot. Scripts build the
 * generation's key names from ARGV (they depend on the generation read inside the script); every such
 * key shares the tenant's hash tag. Collection names, links and window keys arrive URI-encoded.
 *
 * Common arguments: KEYS[1] = {P}gen, KEYS[2] = the tenants SET; ARGV[1] = {P}, ARGV[2] = the tenant.
 * Virtual time always comes in ARGV: no script reads Redis's clock, and no key has a TTL (a TTL follows
 * Redis's wall clock and would forget hits a frozen virtual clock still counts: DELETE-RATE-LIMIT).
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
    redis.call('SADD', KEYS[2], ARGV[2])
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
local function unindex(c, id)
  redis.call('ZREM', c .. 'ord', id)
  local link = redis.call('HGET', c .. 'lnk', id)
  if link then
    redis.call('HDEL', c .. 'lnk', id)
    redis.call('ZREM', c .. 'by:' .. link, id)
  end
end
local function remove(c, id)
  if redis.call('HDEL', c .. 'rec', id) == 0 then return false end
  unindex(c, id)
  return true
end
`;

/** A script: the prelude (generation lookup, collection helpers) then the body. */
export function script(body: string): LuaScript {
  return luaScript(`${PRELUDE}\n${body}`);
}
