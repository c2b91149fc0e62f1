/** Scripts for rate-limit windows, sequences and jobs (key layout: redis-lua-prelude.ts). */
import { script } from './redis-lua-prelude.js';

/**
 * ARGV[3] window key, ARGV[4] now, ARGV[5] now - windowMs, ARGV[6] limit (DELETE-RATE-LIMIT). Returns
 * {allowed 1|0, count, score of the oldest hit counted}; the caller does the arithmetic on numbers
 * (Lua would print them with 14 digits). `now` is the tenant's virtual time, never Redis's clock.
 */
export const HIT_SLIDING_WINDOW = script(`
local g = generation(true)
local window = g .. 'w:' .. ARGV[3]
-- Windows in the order of their first hit, as the memory store exports them.
if not redis.call('ZSCORE', g .. 'wins', ARGV[3]) then
  redis.call('ZADD', g .. 'wins', redis.call('INCR', g .. 'order'), ARGV[3])
end
-- A hit counts while at > now - windowMs (as the memory store's filter): drop those at or before.
redis.call('ZREMRANGEBYSCORE', window, '-inf', ARGV[5])
local count = redis.call('ZCARD', window)
if count >= tonumber(ARGV[6]) then
  local oldest = redis.call('ZRANGE', window, 0, 0, 'WITHSCORES')
  return {0, count, oldest[2] or ARGV[4]}
end
-- Members must be unique (two hits in one millisecond both count): the order counter makes them so.
redis.call('ZADD', window, ARGV[4], ARGV[4] .. ':' .. redis.call('INCR', g .. 'order'))
return {1, count + 1, ARGV[4]}
`);

/** ARGV[3] name: the next value, from 1. */
export const NEXT_SEQUENCE = script(`
redis.call('SADD', KEYS[2], ARGV[2])
return redis.call('HINCRBY', base .. 'seq', ARGV[3], 1)
`);

/**
 * ARGV[3] id, ARGV[4] at, ARGV[5] member (zero-padded order, ':', id: jobs due at one instant sort by
 * order), ARGV[6] job JSON. Same id replaces.
 */
export const ADD_JOB = script(`
redis.call('SADD', KEYS[2], ARGV[2])
local before = redis.call('HGET', base .. 'jobs:ids', ARGV[3])
if before then
  redis.call('ZREM', base .. 'jobs:due', before)
  redis.call('HDEL', base .. 'jobs:rec', before)
end
redis.call('ZADD', base .. 'jobs:due', ARGV[4], ARGV[5])
redis.call('HSET', base .. 'jobs:rec', ARGV[5], ARGV[6])
redis.call('HSET', base .. 'jobs:ids', ARGV[3], ARGV[5])
return 1
`);

/** ARGV[3] until: the earliest due job's JSON, removed, or nil (a job runs on one replica, once). */
export const CLAIM_DUE_JOB = script(`
local due = redis.call('ZRANGEBYSCORE', base .. 'jobs:due', '-inf', ARGV[3], 'LIMIT', 0, 1)
local member = due[1]
if not member then return false end
local json = redis.call('HGET', base .. 'jobs:rec', member)
redis.call('ZREM', base .. 'jobs:due', member)
redis.call('HDEL', base .. 'jobs:rec', member)
-- The member is "<order>:<id>": the id follows the first colon.
redis.call('HDEL', base .. 'jobs:ids', string.sub(member, string.find(member, ':', 1, true) + 1))
return json
`);

/** ARGV[3] limit: the next jobs' JSON, soonest first. */
export const UPCOMING_JOBS = script(`
local members = redis.call('ZRANGE', base .. 'jobs:due', 0, tonumber(ARGV[3]) - 1)
if #members == 0 then return {} end
return hmget_all(base .. 'jobs:rec', members)
`);
