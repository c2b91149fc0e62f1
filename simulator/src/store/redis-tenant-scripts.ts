/** Scripts over a tenant's whole state: export, import's flip, clear (key layout: redis-lua-prelude.ts). */
import { script } from './redis-lua-prelude.js';

/**
 * The current generation in one step: {{collection, {JSON in order}}...}, {{window key, {hit scores}}...}.
 * Empty collections are left out, as the memory store leaves them out.
 */
export const EXPORT_TENANT = script(`
local g = generation(false)
if not g then return {{}, {}} end
local collections = {}
for _, name in ipairs(redis.call('ZRANGE', g .. 'colls', 0, -1)) do
  local c = collection(g, name)
  local ids = redis.call('ZRANGE', c .. 'ord', 0, -1)
  if #ids > 0 then collections[#collections + 1] = {name, hmget_all(c .. 'rec', ids)} end
end
local windows = {}
for _, key in ipairs(redis.call('ZRANGE', g .. 'wins', 0, -1)) do
  local scored = redis.call('ZRANGE', g .. 'w:' .. key, 0, -1, 'WITHSCORES')
  local hits = {}
  for i = 2, #scored, 2 do hits[#hits + 1] = scored[i] end
  windows[#windows + 1] = {key, hits}
end
return {collections, windows}
`);

/**
 * ARGV[3] the generation an import has written: it becomes the current one in one step, so a reader
 * sees the old state or the new, never a mix. Returns the old generation (to drop), or nil.
 */
export const FLIP_GENERATION = script(`
local before = redis.call('GET', KEYS[1])
redis.call('SET', KEYS[1], ARGV[3])
return before
`);

/**
 * Forgets the tenant in one step (records, windows, counters, jobs and their leases); returns the
 * generation to drop. The lease counter stays, as the generation counter does: never reused.
 */
export const CLEAR_TENANT = script(`
local before = redis.call('GET', KEYS[1])
redis.call('DEL', KEYS[1], base .. 'seq', base .. 'jobs:due', base .. 'jobs:rec', base .. 'jobs:ids',
  base .. 'jobs:lease')
return before
`);

/**
 * ARGV[3] a generation no longer current (nothing reaches it): deletes its keys. UNLINK frees large
 * values off Redis's main thread.
 */
export const DROP_GENERATION = script(`
local g = base .. 'g' .. ARGV[3] .. ':'
for _, name in ipairs(redis.call('ZRANGE', g .. 'colls', 0, -1)) do
  local c = collection(g, name)
  local seen = {}
  for _, link in ipairs(redis.call('HVALS', c .. 'lnk')) do
    if not seen[link] then
      seen[link] = true
      redis.call('UNLINK', c .. 'by:' .. link)
    end
  end
  redis.call('UNLINK', c .. 'rec', c .. 'ord', c .. 'lnk')
end
for _, key in ipairs(redis.call('ZRANGE', g .. 'wins', 0, -1)) do redis.call('UNLINK', g .. 'w:' .. key) end
redis.call('UNLINK', g .. 'colls', g .. 'wins', g .. 'order', g .. 'writes')
return 1
`);
