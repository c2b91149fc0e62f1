/**
 * MODEL-LINK-LIFECYCLE: the stateful, model-based run of the link lifecycle. Each run is a sequence of commands
 * (register, retrieve, list, get, refresh, patch, delete, clock advance) checked one by one against an
 * explicit model of the run's links and records; fast-check shrinks a failing sequence to the shortest
 * one it finds, and the runner prints that run's requests as curl commands.
 *
 * Without the control API the rule still runs (the lifecycle is most of what it checks): no AdvanceClock,
 * and the cooldown and the deletion limit are expected only where the real time elapsed decides them
 * (run-setup.ts notes it in the report).
 */
import fc from 'fast-check';
import { defineRule, type Rule } from '../rule.js';
import { type ModelRun, modelRuns } from './model-commands.js';
import { describeTally } from './model-target.js';
import { endRun, MODEL_OPERATIONS, type ModelFixture, prepareModel, startRun } from './run-setup.js';

/** Commands per run at most: enough for six registrations and deletions within one minute. */
const MAX_COMMANDS = 50;

export interface ModelRuleOptions {
  /** fast-check's replayPath of the commands (printed with a failure), to replay its shrunk run. */
  replayPath?: string;
}

/** The rule; `replayPath` replays a failure's shrunk command sequence together with the runner's path. */
export function modelLinkLifecycle(options: ModelRuleOptions = {}): Rule {
  return defineRule<ModelRun, ModelFixture>({
    id: 'MODEL-LINK-LIFECYCLE',
    title:
      'MODEL-LINK-LIFECYCLE: after every command of any sequence of link and record operations, the ' +
      "target's answers equal an explicit model's (LINK-REGISTER, LINK-MFA-428, DATA-RETRIEVE, PAGE-NAV, " +
      'LINK-DELETE-SYNC, ACCOUNT-DELETE-CASCADE, LINK-REFRESH-COOLDOWN, DELETE-RATE-LIMIT).',
    area: 'links',
    operations: MODEL_OPERATIONS,
    tenantWide: 'clock',
    runs: 40,
    prepare: prepareModel,
    arbitrary: () =>
      modelRuns({
        maxCommands: MAX_COMMANDS,
        ...(options.replayPath === undefined ? {} : { replayPath: options.replayPath }),
      }),
    async check(input, run, fixture) {
      const { model, target } = await startRun(run, fixture);
      try {
        await fc.asyncModelRun(() => ({ model, real: target }), input.commands);
      } finally {
        await endRun(fixture, model);
      }
    },
    summarize: (fixture) => [`answers seen: ${describeTally(fixture.tally)}`],
  });
}
