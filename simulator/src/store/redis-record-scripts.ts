/** Scripts over a collection's records (key layout: redis-lua-prelude.ts). */
import { script } from './redis-lua-prelude.js';

/** ARGV[3] collection, ARGV[4] id. */
export const GET = script(`
local g = generation(false)
if not g then return false end
return redis.call('HGET', collection(g, ARGV[3]) .. 'rec', ARGV[4])
`);

/** ARGV[3] collection, ARGV[4] id, ARGV[5] JSON, ARGV[6] link ('' with ARGV[7] '0' when none). */
export const PUT = script(`
put_record(generation(true), ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
return 1
`);

/** ARGV[3] collection, ARGV[4] id: 1 when deleted. */
export const DELETE = script(`
local g = generation(false)
if not g then return 0 end
if remove(g, collection(g, ARGV[3]), ARGV[4]) then return 1 end
return 0
`);

/** ARGV[3] collection, ARGV[4] link ('' with ARGV[5] '0' for the whole collection): JSON in order. */
export const LIST = script(`
local g = generation(false)
if not g then return {} end
local c = collection(g, ARGV[3])
local index = c .. 'ord'
if ARGV[5] == '1' then index = c .. 'by:' .. ARGV[4] end
local ids = redis.call('ZRANGE', index, 0, -1)
if #ids == 0 then return {} end
return hmget_all(c .. 'rec', ids)
`);

/**
 * ARGV[3] collection, ARGV[4] link ('' with ARGV[5] '0' for the whole collection), ARGV[6] start,
 * ARGV[7] count: the list's length, then each record at [start, start + count) in order as its id and
 * its JSON.
 */
export const LIST_SLICE = script(`
local g = generation(false)
if not g then return {0} end
local c, total, ids = slice_ids(g, ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
if #ids == 0 then return {total} end
local texts = hmget_all(c .. 'rec', ids)
local out = {total}
for i = 1, #ids do
  out[#out + 1] = ids[i]
  out[#out + 1] = texts[i]
end
return out
`);

/**
 * The first step of a page read in two (redis-store.ts listSlice), with the arguments of LIST_SLICE and
 * ARGV[8] the tenant state the caller has this page at ('' when none): {-1} when that is the current
 * state (the page is unchanged); else the list's length, the generation's key start, the state
 * (`<generation>|<count of record changes>`), then the ids at [start, start + count). Record texts stay
 * out of Lua: bringing 100 records of a page into a script cost Redis about 200 us, a plain HMGET of
 * them 14 us.
 */
export const LIST_SLICE_IDS = script(`
local g = generation(false)
if not g then return {0} end
local state = g .. '|' .. (redis.call('GET', g .. 'writes') or '')
if ARGV[8] == state then return {-1} end
local _, total, ids = slice_ids(g, ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
if #ids == 0 then return {total} end
local out = {total, g, state}
for _, id in ipairs(ids) do out[#out + 1] = id end
return out
`);

/** ARGV[3] collection, ARGV[4] link: how many deleted. */
export const DELETE_BY_LINK = script(`
local g = generation(false)
if not g then return 0 end
return delete_by_link(g, ARGV[3], ARGV[4])
`);

/** ARGV[3] collection, ARGV[4] id: the JSON taken, or nil (LINK-MFA-428: a session resumed once). */
export const TAKE = script(`
local g = generation(false)
if not g then return false end
local c = collection(g, ARGV[3])
local json = redis.call('HGET', c .. 'rec', ARGV[4])
if json then remove(g, c, ARGV[4]) end
return json
`);

/**
 * ARGV[3] collection, ARGV[4] id: the JSON before the use, or nil (ERR-500-408: a fault armed for N
 * requests fails exactly N). cjson only reads `remaining`: re-encoding with it would lose digits past 14,
 * turn [] into {} and reorder members, so the new count is written into the stored text in place (the
 * text is JSON.stringify's: compact, so the top-level member reads `"remaining":<number>`).
 */
export const CONSUME = script(`
local function with_remaining(json, value)
  local depth, i = 0, 1
  while true do
    i = string.find(json, '["{}%[%]]', i)
    if not i then return nil end
    local ch = string.sub(json, i, i)
    if ch == '"' then
      local j = i + 1
      while true do
        j = string.find(json, '["\\\\]', j)
        if string.sub(json, j, j) == '"' then break end
        j = j + 2
      end
      if depth == 1 and string.sub(json, i, j + 1) == '"remaining":' then
        local _, last = string.find(json, '^[-+.%deE]+', j + 2)
        return string.sub(json, 1, j + 1) .. value .. string.sub(json, last + 1)
      end
      i = j + 1
    else
      if ch == '{' or ch == '[' then depth = depth + 1 else depth = depth - 1 end
      i = i + 1
    end
  end
end
local g = generation(false)
if not g then return false end
local c = collection(g, ARGV[3])
local json = redis.call('HGET', c .. 'rec', ARGV[4])
if not json then return false end
local remaining = cjson.decode(json).remaining
if type(remaining) == 'number' then
  if remaining <= 1 then
    remove(g, c, ARGV[4])
  else
    -- HSET of an existing field: the record keeps its place in the order.
    redis.call('HSET', c .. 'rec', ARGV[4], with_remaining(json, string.format('%.17g', remaining - 1)))
    touched(g)
  end
end
return json
`);
