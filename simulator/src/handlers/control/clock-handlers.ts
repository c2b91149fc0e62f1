/**
 * The tenant's virtual clock (`/_ofkit/clock/`): get, set, advance, freeze. Moving forward runs every job
 * that falls due on the way, in order; moving backward runs none (DESIGN.md, the control API). There is
 * no unfreeze operation in admin.yaml: `PUT /_ofkit/clock/ {"frozen": false}` unfreezes.
 */
import type { JobInfo } from '../../clock/virtual-clock.js';
import { err, ok } from '../../core/result.js';
import { apiError } from '../../errors/api-error.js';
import type { TenantRuntime } from '../../tenants/tenant-runtime.js';
import { type Handler, json } from '../handler.js';

/** The last instant a `date-time` (four-digit year) can write; the Clock schema cannot show a later one. */
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** How many of the next scheduled jobs the Clock shows (the dashboard's "next jobs"). */
const UPCOMING_JOBS = 20;

const toJob = ({ at, kind, subject }: JobInfo) => ({
  at: new Date(at).toISOString(),
  kind,
  ...(subject !== undefined && { subject }),
});

/** The Clock schema: `jobs_run` and `ran` only for the calls that move the time. */
function clockBody(tenant: TenantRuntime, ran?: JobInfo[]) {
  const { now, frozen } = tenant.clock.state();
  return {
    now: new Date(now).toISOString(),
    frozen,
    jobs: tenant.clock.upcoming(UPCOMING_JOBS).map(toJob),
    ...(ran !== undefined && { jobs_run: ran.length, ran: ran.map(toJob) }),
  };
}

const getClock: Handler = async ({ tenant }) => ok(json(200, clockBody(tenant)));

const setClock: Handler = async ({ input, tenant }) => {
  const body = input.body as { now?: string; frozen?: boolean };
  const ran: JobInfo[] = [];
  if (body.now !== undefined) {
    const instant = Date.parse(body.now);
    if (Number.isNaN(instant)) {
      return err(apiError('invalid', { field: 'now', message: `\`now\` ${body.now} is not an instant.` }));
    }
    await tenant.clock.setTo(instant, ran);
  }
  // After the move, so that a frozen clock stops at the new instant and an unfrozen one follows real
  // time from it (setClock's description).
  if (body.frozen === true) tenant.clock.freeze();
  if (body.frozen === false) tenant.clock.unfreeze();
  return ok(json(200, clockBody(tenant, ran)));
};

const advanceClock: Handler = async ({ input, tenant }) => {
  const { seconds } = input.body as { seconds: number };
  // Whole milliseconds: the clock's instants are written as date-times with milliseconds.
  const milliseconds = Math.round(seconds * 1000);
  if (tenant.clock.now() + milliseconds > LATEST_INSTANT) {
    const message = `Advancing ${seconds} s would pass 9999-12-31T23:59:59.999Z, the last instant a date-time can write.`;
    return err(apiError('invalid', { field: 'seconds', message }));
  }
  const ran: JobInfo[] = [];
  await tenant.clock.advance(milliseconds, ran);
  return ok(json(200, clockBody(tenant, ran)));
};

const freezeClock: Handler = async ({ tenant }) => {
  tenant.clock.freeze();
  return ok(json(200, clockBody(tenant)));
};

export const clockHandlers: [string, Handler][] = [
  ['getClock', getClock],
  ['setClock', setClock],
  ['advanceClock', advanceClock],
  ['freezeClock', freezeClock],
];
