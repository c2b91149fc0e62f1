/**
 * The tenant's virtual clock through the control API (openapi/admin.yaml): the time-based link rules
 * (LINK-MFA-428 expiry, LINK-DELETE-ASYNC, LINK-REFRESH-COOLDOWN, DELETE-RATE-LIMIT) move it instead of
 * waiting, and freeze it while they count seconds so that a target whose clock follows real time
 * answers the same as one whose clock stands still.
 */
import { isObject } from '../../../../openapi/document/json.js';
import type { HttpSession } from '../../http/http-client.js';
import { describeAnswer } from '../expect-response.js';
import { fail } from '../rule.js';

const CLOCK = '/_ofkit/clock/';
const ADVANCE = '/_ofkit/clock/advance/';
const FREEZE = '/_ofkit/clock/freeze/';

/** Moves the target's clock forward (running the jobs that fall due); nothing for `seconds` <= 0. */
export async function advanceClock(http: HttpSession, seconds: number): Promise<void> {
  if (seconds <= 0) return;
  const answer = await http.request({ method: 'POST', url: ADVANCE, json: { seconds } });
  if (answer.status !== 200) {
    fail(`control API: POST ${ADVANCE} {"seconds": ${seconds}} answered ${describeAnswer(answer)}`);
  }
}

/** Runs `body` with the clock frozen, then lets it follow real time again if it did before. */
export async function withFrozenClock<T>(http: HttpSession, body: () => Promise<T>): Promise<T> {
  const state = await http.request({ method: 'GET', url: CLOCK });
  const wasFrozen = isObject(state.json) && state.json.frozen === true;
  if (!wasFrozen) {
    const frozen = await http.request({ method: 'POST', url: FREEZE });
    if (frozen.status !== 200) fail(`control API: POST ${FREEZE} answered ${describeAnswer(frozen)}`);
  }
  try {
    return await body();
  } finally {
    if (!wasFrozen) await http.request({ method: 'PUT', url: CLOCK, json: { frozen: false } });
  }
}

/** Waits real time (only where the target has no control API to move its clock). */
export const sleep = (milliseconds: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, milliseconds);
  });
