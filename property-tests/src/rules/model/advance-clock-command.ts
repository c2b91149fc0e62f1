/**
 * AdvanceClock: POST /_ofkit/clock/advance/ (openapi/admin.yaml) moves the target's frozen clock, and the
 * model's with it. Only with the control API. The steps are all over a minute (each empties the
 * DELETE-RATE-LIMIT window, so it does not matter whether refused deletions count) and no sum of them
 * is exactly 10 minutes (the LINK-REFRESH-COOLDOWN boundary the spec leaves open).
 */
import type fc from 'fast-check';
import { expectStatus } from '../expect-response.js';
import type { LinkModel } from './link-model.js';
import { type ModelTarget, tallyAnswer } from './model-target.js';

export const CLOCK_ADVANCE = '/_ofkit/clock/advance/';

/** Seconds one AdvanceClock may move: past the deletion window, inside and past the cooldown. */
export const ADVANCE_STEPS = [61, 240, 601] as const;

/** The most one run moves the clock: run-setup.ts keeps this much clear of day boundaries. */
export const MAX_RUN_ADVANCE_MS = 2 * 3_600_000;

export class AdvanceClockCommand implements fc.AsyncCommand<LinkModel, ModelTarget> {
  constructor(readonly seconds: number) {}

  check(model: LinkModel): boolean {
    return model.clock.controlled && model.clock.advancedMs() + this.seconds * 1000 <= MAX_RUN_ADVANCE_MS;
  }

  async run(model: LinkModel, target: ModelTarget): Promise<void> {
    const answer = await target.http.request({
      method: 'POST',
      url: CLOCK_ADVANCE,
      json: { seconds: this.seconds },
    });
    tallyAnswer(target, 'AdvanceClock', answer.status);
    expectStatus(answer, [200], `${this}: the control API's clock advance`);
    model.clock.advance(this.seconds * 1000);
  }

  toString(): string {
    return `AdvanceClock(${this.seconds} s)`;
  }
}
