/** Scripts for rate-limit windows, sequences and jobs (key layout: redis-lua-prelude.ts). */
import { script } from './redis-lua-prelude.js';

/**
 * ARGV[3] window key, ARGV[4] now, ARGV[5] now - windowMs, ARGV[6] limit (DELETE-RATE-LIMIT). Returns
 * {allowed 1|0, count, score of the oldest hit counted}; the caller does the arithmetic on numbers
 * (Lua would print them with 14 digits). `now` is the tenant's virtual time, never Redis's clock.
 */
export const HIT_SLIDING_WINDOW = script(`
return hit_window(generation(true), ARGV[3], ARGV[4], ARGV[5], ARGV[6])
`);

/** ARGV[3] name: the next value, from 1. */
export const NEXT_SEQUENCE = script(`
return redis.call('HINCRBY', base .. 'seq', ARGV[3], 1)
`);

/**
 * ARGV[3] id, ARGV[4] at, ARGV[5] member (zero-padded order, ':', id: jobs due at one instant sort by
 * order), ARGV[6] job JSON. Same id replaces.
 */
export const ADD_JOB = script(`
local before = redis.call('HGET', base .. 'jobs:ids', ARGV[3])
-- The replaced job's lease goes with it: its holder can no longer finish the new one.
if before then remove_job(before, ARGV[3]) end
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
remove_job(member, job_id(member))
return json
`);

/** ARGV[3] limit: the next jobs' JSON, soonest first. */
export const UPCOMING_JOBS = script(`
local members = redis.call('ZRANGE', base .. 'jobs:due', 0, tonumber(ARGV[3]) - 1)
if #members == 0 then return {} end
return hmget_all(base .. 'jobs:rec', members)
`);
