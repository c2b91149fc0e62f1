/**
 * DELETE-RATE-LIMIT: `count` synchronous deletions in one rate-limited collection (links, accounts,
 * transactions, employment records: whichever the target has), `spacing` seconds apart, all inside one
 * window. With the control API the clock first moves past the window (earlier deletions stop counting),
 * is frozen, and moves by `spacing`: deletions 1..limit answer 204 and every later one 429 with the error
 * array. Then, as the input says, a window later one more deletion is accepted again, or a deletion in
 * another rate-limited collection is accepted at once (counted per collection, the rule's choice). The
 * "per API key" half is left to the isolation rules (the second key's tenant has a clock of its own).
 * Without a control API (choice): no clean window can be had short of sleeping a minute per run, and
 * earlier deletions of the suite still count, so only the bound is checked: of deletions sent back to
 * back (inside one window of real time), at most `limit` are accepted, and the others answer 429 with the
 * error array.
 */
import fc from 'fast-check';
import { expectErrorArray, expectStatus } from '../expect-response.js';
import { defineRule, fail, type RunContext, skip } from '../rule.js';
import { advanceClock, withFrozenClock } from './control-clock.js';
import { passDeletionWindow, type RateLimit, rateLimitOf } from './deletion-window.js';
import { type DeletionTarget, deleteUrl, deletionTargets, makeRecords } from './rate-limited-records.js';

interface Input {
  /** The DELETE operation. */
  target: string;
  count: number;
  /** Seconds between two deletions (0 without a control API). */
  spacing: number;
  /**
   * After the burst (control API only): `next-window` moves a whole window on and deletes once more in the
   * same collection; `other-collection` deletes once in another rate-limited collection. Both: 204.
   */
  afterwards: 'next-window' | 'other-collection' | null;
}

type Afterwards = Input['afterwards'];

interface Fixture {
  targets: DeletionTarget[];
  control: boolean;
}

/** The deletions of one run: each answer checked against the model (control API) or the bound. */
async function burst(run: RunContext, input: Input, target: DeletionTarget, ids: string[], limit: RateLimit) {
  const started = performance.now();
  let accepted = 0;
  for (const [index, id] of ids.slice(0, input.count).entries()) {
    if (index > 0) await advanceClock(run.http, input.spacing);
    const url = deleteUrl(run, target, id);
    const answer = await run.http.request({ method: 'DELETE', url });
    const what = `deletion ${index + 1} (DELETE ${url}), ${index * input.spacing} s after the first`;
    const expected = run.capabilities.controlApi ? [index < limit.limit ? 204 : 429] : [204, 429];
    expectStatus(answer, expected, what);
    if (answer.status === 429) expectErrorArray(run.document, answer, what);
    else accepted += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  if (!run.capabilities.controlApi && seconds < limit.windowSeconds && accepted > limit.limit) {
    fail(
      `${accepted} of ${input.count} deletions in ${target.collection} within ${seconds.toFixed(1)} s were accepted; at most ${limit.limit} per ${limit.windowSeconds} s`,
    );
  }
}

/** The collection and record of the deletion after the burst, made before it. */
async function followUp(run: RunContext, input: Input, fixture: Fixture, target: DeletionTarget) {
  const other = fixture.targets.find((candidate) => candidate.operationId !== target.operationId);
  const where = input.afterwards === 'other-collection' && other ? other : target;
  return input.afterwards === null ? undefined : { where, id: (await makeRecords(run, where, 1))[0]! };
}

async function checkDeletions(run: RunContext, input: Input, fixture: Fixture): Promise<void> {
  const target = fixture.targets.find((candidate) => candidate.operationId === input.target)!;
  const limit = rateLimitOf(run, target.operationId);
  const ids = await makeRecords(run, target, input.count);
  const after = await followUp(run, input, fixture, target);
  await passDeletionWindow(run, target.operationId);
  await burst(run, input, target, ids, limit);
  if (!after) return;
  // A refused deletion may count in the window or not (the spec does not say): wait a whole window.
  if (input.afterwards === 'next-window') await advanceClock(run.http, limit.windowSeconds + 1);
  const url = deleteUrl(run, after.where, after.id);
  const when =
    input.afterwards === 'next-window'
      ? 'a window after the burst'
      : `right after the burst in ${target.collection}`;
  const what = `DELETE ${url} ${when}`;
  expectStatus(await run.http.request({ method: 'DELETE', url }), [204], what);
}

/** What may follow the burst: nothing without a control API; another collection only when there is one. */
function afterwardsArbitrary(control: boolean, targets: number): fc.Arbitrary<Afterwards> {
  if (!control) return fc.constant(null);
  const options: Afterwards[] =
    targets > 1 ? [null, 'next-window', 'other-collection'] : [null, 'next-window'];
  return fc.constantFrom(...options);
}

export const deleteRateLimit = defineRule<Input, Fixture>({
  id: 'DELETE-RATE-LIMIT',
  area: 'links',
  tenantWide: 'clock',
  over: (operation) => operation.method === 'DELETE' && operation.raw['x-rate-limit'] !== undefined,
  runs: 6,
  async prepare(suite, note) {
    const targets = await deletionTargets(suite, note);
    if (targets.length === 0) return skip('no rate-limited DELETE whose records the suite can make here');
    const control = suite.capabilities.controlApi;
    if (!control) {
      note('no control API clock: only "at most the limit per window" is checked (see the rule file)');
    }
    return { targets, control };
  },
  arbitrary(suite, { targets, control }) {
    const target = fc.constantFrom(...targets.map((t) => t.operationId));
    return target.chain((operationId) => {
      const { limit, windowSeconds } = rateLimitOf(suite, operationId);
      // Every deletion of the burst inside one window: (count - 1) * spacing < window.
      const spacing = control
        ? fc.integer({ min: 0, max: Math.floor((windowSeconds - 1) / (limit + 1)) })
        : fc.constant(0);
      return fc.record({
        target: fc.constant(operationId),
        count: fc.integer({ min: 1, max: limit + 2 }),
        spacing,
        afterwards: afterwardsArbitrary(control, targets.length),
      });
    });
  },
  examples: (suite, { targets, control }) =>
    targets.map((target, index): Input => {
      const { limit, windowSeconds } = rateLimitOf(suite, target.operationId);
      // The boundary: the 6th deletion, as late as the window allows; then each follow-up in turn.
      const spacing = control ? Math.floor((windowSeconds - 1) / limit) : 0;
      const other: Afterwards = index % 2 === 1 && targets.length > 1 ? 'other-collection' : 'next-window';
      const afterwards = control ? other : null;
      return { target: target.operationId, count: limit + 1, spacing, afterwards };
    }),
  check: (input, run, fixture) =>
    fixture.control
      ? withFrozenClock(run.http, () => checkDeletions(run, input, fixture))
      : checkDeletions(run, input, fixture),
});
