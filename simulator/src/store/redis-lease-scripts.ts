/**
 * Scripts of job leases (key layout: redis-lua-prelude.ts). A lease's expiry is measured on Redis's own
 * clock (TIME): it says how long a replica may hold a job before another may take it over, which is
 * liveness; the job's due time and everything it decides stay on the tenant's virtual clock.
 */
import { script } from './redis-lua-prelude.js';

const LEASES = `
local function store_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function lease_of(id)
  local held = redis.call('HGET', base .. 'jobs:lease', id)
  if not held then return nil end
  local token, expires, owner = string.match(held, '^(%d+):(%d+):(.*)$')
  return {token = token, expires = tonumber(expires), owner = owner}
end
local function set_lease(id, token, expires, owner)
  redis.call('HSET', base .. 'jobs:lease', id, token .. ':' .. string.format('%d', expires) .. ':' .. owner)
end
`;

const leaseScript = (body: string) => script(`${LEASES}\n${body}`);

/**
 * ARGV[3] until (virtual time), ARGV[4] owner, ARGV[5] lease length (ms): {job JSON, token} of the
 * earliest due job without a live lease, now leased; or nil.
 */
export const LEASE_DUE_JOB = leaseScript(`
local now = store_ms()
local offset = 0
while true do
  local due = redis.call('ZRANGEBYSCORE', base .. 'jobs:due', '-inf', ARGV[3], 'LIMIT', offset, 32)
  if #due == 0 then return false end
  for _, member in ipairs(due) do
    local id = job_id(member)
    local held = lease_of(id)
    if not held or held.expires <= now then
      local token = redis.call('INCR', base .. 'leases')
      set_lease(id, token, now + tonumber(ARGV[5]), ARGV[4])
      return {redis.call('HGET', base .. 'jobs:rec', member), token}
    end
  end
  offset = offset + #due
end
`);

/** Checks that ARGV[3] (job id) is still leased with token ARGV[4]; `held` is its lease. */
const HOLDS = `
local held = lease_of(ARGV[3])
if not held or held.token ~= ARGV[4] then return 0 end
`;

/** ARGV[3] id, ARGV[4] token: 1 when the job ran under this lease and is now removed. */
export const FINISH_JOB = leaseScript(`${HOLDS}
remove_job(redis.call('HGET', base .. 'jobs:ids', ARGV[3]), ARGV[3])
return 1
`);

/** ARGV[3] id, ARGV[4] token: 1 when handed back (due as before, for any replica). */
export const RELEASE_JOB = leaseScript(`${HOLDS}
redis.call('HDEL', base .. 'jobs:lease', ARGV[3])
return 1
`);

/** ARGV[3] id, ARGV[4] token, ARGV[5] lease length (ms): 1 when extended from now. */
export const RENEW_JOB = leaseScript(`${HOLDS}
set_lease(ARGV[3], held.token, store_ms() + tonumber(ARGV[5]), held.owner)
return 1
`);

/** ARGV[3] id: 1 when a job with this id was removed, leased or not. */
export const CANCEL_JOB = leaseScript(`
local member = redis.call('HGET', base .. 'jobs:ids', ARGV[3])
if not member then return 0 end
remove_job(member, ARGV[3])
return 1
`);
