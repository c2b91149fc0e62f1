/**
 * Scripts of the steps two replicas race on: a compare-and-set put and a removal with everything that
 * goes with it (key layout: redis-lua-prelude.ts). Virtual time, when one decides, comes in ARGV.
 */
import { script } from './redis-lua-prelude.js';

/**
 * ARGV[3] collection, ARGV[4] id, ARGV[5] JSON, ARGV[6] link, ARGV[7] '1' when it has one, ARGV[8] the
 * condition's member, ARGV[9] the JSON value it must have (a missing record or member counts as null).
 * Returns {1 put | 0 not, the JSON stored before or nil}. cjson only reads the member compared: the
 * stored text is never re-encoded.
 */
export const PUT_IF = script(`
local g = generation(true)
local before = redis.call('HGET', collection(g, ARGV[3]) .. 'rec', ARGV[4])
local current = cjson.null
if before then
  local value = cjson.decode(before)[ARGV[8]]
  if value ~= nil then current = value end
end
if current ~= cjson.decode(ARGV[9]) then return {0, before} end
put_record(g, ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7])
return {1, before}
`);

/**
 * ARGV[3] collection, ARGV[4] id, ARGV[5] the id as a link key part, ARGV[6] JSON array of the
 * collections to cascade to; ARGV[7] window key ('' for none), ARGV[8] now (virtual), ARGV[9] now -
 * windowMs, ARGV[10] limit; ARGV[11] mark collection ('' for none), ARGV[12] its id, ARGV[13] its
 * JSON, ARGV[14] its link, ARGV[15] '1' when it has one. Returns {'removed', JSON} | {'missing'} |
 * {'refused', count, oldest hit}.
 */
export const REMOVE_RECORD = script(`
local g = generation(false)
if not g then return {'missing'} end
local c = collection(g, ARGV[3])
local json = redis.call('HGET', c .. 'rec', ARGV[4])
if not json then return {'missing'} end
if ARGV[7] ~= '' then
  local hit = hit_window(g, ARGV[7], ARGV[8], ARGV[9], ARGV[10])
  if hit[1] == 0 then return {'refused', hit[2], hit[3]} end
end
remove(g, c, ARGV[4])
for _, name in ipairs(cjson.decode(ARGV[6])) do delete_by_link(g, name, ARGV[5]) end
if ARGV[11] ~= '' then put_record(g, ARGV[11], ARGV[12], ARGV[13], ARGV[14], ARGV[15]) end
return {'removed', json}
`);
