/**
 * The tenant's virtual clock (`/_ofkit/clock/`): get, set, advance, freeze. Moving forward runs every job
 * that falls due on the way, in order; moving backward runs none (a job due in the past already ran). There is
 * no unfreeze operation in admin.yaml: `PUT /_ofkit/clock/ {"frozen": false}` unfreezes.
 */
import type { ClockState, JobInfo } from '../clock/virtual-clock.js';
import { apiError } from '../core/api-error.js';
import { type Handler, json, type ValidInput } from '../core/handler.js';
import { err, ok } from '../core/result.js';
import type { TenantRuntime } from '../core/tenant.js';
import { DAY_MS } from '../core/time.js';
import { rescheduleAfterMoveBack } from '../links/events/daily-schedule.js';

/**
 * The instants the clock may stand at. The dates the simulator computes from it (a record's history
 * years back, an investment's due date years ahead) must stay four-digit `date`s: at year 1000 they
 * fell before it ("Invalid time value", 500) and at 9999 after it (a `due_date` the document refuses),
 * so a century is left on each side of what was measured to work.
 */
export const EARLIEST_INSTANT = Date.parse('1970-01-01T00:00:00.000Z');
export const LATEST_INSTANT = Date.parse('9899-12-31T23:59:59.999Z');

/** Why an instant is outside the clock's bounds, or undefined. */
export function outsideBounds(instant: number): string | undefined {
  if (instant >= EARLIEST_INSTANT && instant <= LATEST_INSTANT) return undefined;
  return `${new Date(instant).toISOString()} is outside the clock's bounds, ${new Date(EARLIEST_INSTANT).toISOString()} to ${new Date(LATEST_INSTANT).toISOString()} (the dates computed from it must stay four-digit dates).`;
}

/** The longest forward move of one call, set or advance (ClockAdvanceRequest's `maximum`: 366 days). */
export const MAX_MOVE_DAYS = 366;
const MAX_MOVE_MS = MAX_MOVE_DAYS * DAY_MS;

/** How many of the next scheduled jobs the Clock shows (the dashboard's "next jobs"). */
const UPCOMING_JOBS = 20;

const toJob = ({ at, kind, subject }: JobInfo) => ({
  at: new Date(at).toISOString(),
  kind,
  ...(subject !== undefined && { subject }),
});

/** Where the jobs a move runs are collected, only when asked for (a move can run millions). */
const collect = (input: ValidInput, jobs: JobInfo[]) => (input.query.include === 'jobs' ? jobs : undefined);

/**
 * The Clock schema: `jobs_run` only for the calls that move the time; with `?include=jobs`, the next
 * jobs and (for those calls) the jobs that ran. `moved`: the clock a move wrote (with replicas moving
 * one clock at once, the clock right after this move, not after another replica's).
 */
async function clockBody(
  tenant: TenantRuntime,
  input: ValidInput,
  ran?: { count: number; jobs: JobInfo[] },
  moved?: ClockState,
) {
  const { now, frozen } = moved ?? tenant.clock.state();
  const withJobs = input.query.include === 'jobs';
  return {
    now: new Date(now).toISOString(),
    frozen,
    ...(withJobs && { jobs: (await tenant.clock.upcoming(UPCOMING_JOBS)).map(toJob) }),
    ...(ran !== undefined && { jobs_run: ran.count }),
    ...(withJobs && ran !== undefined && { ran: ran.jobs.map(toJob) }),
  };
}

const getClock: Handler = async ({ input, tenant }) => ok(json(200, await clockBody(tenant, input)));

const setClock: Handler = async ({ input, tenant }) => {
  const body = input.body as { now?: string; frozen?: boolean };
  const ran = { count: 0, jobs: [] as JobInfo[] };
  let instant: number | undefined;
  if (body.now !== undefined) {
    instant = Date.parse(body.now);
    if (Number.isNaN(instant)) {
      return err(apiError('invalid', { field: 'now', message: `\`now\` ${body.now} is not an instant.` }));
    }
    const outside = outsideBounds(instant);
    if (outside) return err(apiError('invalid', { field: 'now', message: `\`now\` ${outside}` }));
    // README "Limits": the same bound as advance; far jumps are what stalled every tenant .
    if (instant - tenant.clock.now() > MAX_MOVE_MS) {
      const message = `\`now\` is more than ${MAX_MOVE_DAYS} days ahead of the clock: a forward move runs every job on the way, so one call moves at most ${MAX_MOVE_DAYS} days (set it in steps, or import a snapshot at that instant).`;
      return err(apiError('invalid', { field: 'now', message }));
    }
  }
  // One move, one compare-and-set of the stored clock (a set racing another replica's advance is
  // serialised with it): frozen before the move, so that it stops exactly at the new instant (freezing
  // after it would freeze the instant plus the real time the move took); unfrozen after it, so that it
  // follows real time from the new instant (setClock's description).
  const before = tenant.clock.now();
  const moved = await tenant.clock.move(
    {
      ...(instant !== undefined && { to: instant }),
      ...(body.frozen !== undefined && { frozen: body.frozen }),
    },
    collect(input, ran.jobs),
  );
  ran.count = moved.count;
  // WEBHOOK-DAILY: a move back would leave the next daily refresh days ahead of the new instant.
  if (instant !== undefined && instant < before) await rescheduleAfterMoveBack(tenant);
  return ok(json(200, await clockBody(tenant, input, ran, moved.state)));
};

const advanceClock: Handler = async ({ input, tenant }) => {
  const { seconds } = input.body as { seconds: number };
  // Whole milliseconds: the clock's instants are written as date-times with milliseconds.
  const milliseconds = Math.round(seconds * 1000);
  if (tenant.clock.now() + milliseconds > LATEST_INSTANT) {
    const message = `Advancing ${seconds} s would pass ${new Date(LATEST_INSTANT).toISOString()}, the clock's last instant (the dates computed from it must stay four-digit dates).`;
    return err(apiError('invalid', { field: 'seconds', message }));
  }
  const jobs: JobInfo[] = [];
  const moved = await tenant.clock.move({ by: milliseconds }, collect(input, jobs));
  return ok(json(200, await clockBody(tenant, input, { count: moved.count, jobs }, moved.state)));
};

const freezeClock: Handler = async ({ input, tenant }) => {
  const moved = await tenant.clock.move({ frozen: true });
  return ok(json(200, await clockBody(tenant, input, undefined, moved.state)));
};

export const clockHandlers: [string, Handler][] = [
  ['getClock', getClock],
  ['setClock', setClock],
  ['advanceClock', advanceClock],
  ['freezeClock', freezeClock],
];
