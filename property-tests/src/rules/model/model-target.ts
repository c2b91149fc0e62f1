/** The real side of a model run: the target behind its recording session, and what the run shares. */
import type { HttpSession } from '../../http/http-client.js';
import type { TargetConfig } from '../../target/target-config.js';
import type { Environment } from '../../target/target-types.js';

/** How often each command met each status, over every run of the rule (the report's summary). */
export type AnswerTally = Map<string, Map<number, number>>;

export interface ModelTarget {
  /** The run's recording session: a failure prints it as curl commands. */
  http: HttpSession;
  config: TargetConfig;
  /** The sandbox loads a new link's history at once (WEBHOOK-SANDBOX): the model learns those records. */
  environment: Environment;
  /** `external_id` of every link the run registers: ListLinks filters by it, so other links do not count. */
  externalId: string;
  /** The target's current date (`YYYY-MM-DD`), for the date range of transaction retrievals. */
  today: string;
  tally: AnswerTally;
}

/** Counts one answer of `command` (its first status) in the tally. */
export function tallyAnswer(target: ModelTarget, command: string, status: number): void {
  const statuses = target.tally.get(command) ?? new Map<number, number>();
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  target.tally.set(command, statuses);
}

/** `RefreshLink 202x12 409x5; ...`, commands in alphabetical order. */
export function describeTally(tally: AnswerTally): string {
  const commands = [...tally.keys()].sort();
  return commands
    .map((command) => {
      const statuses = [...(tally.get(command) ?? new Map<number, number>()).entries()].sort(
        ([a], [b]) => a - b,
      );
      return `${command} ${statuses.map(([status, count]) => `${status}x${count}`).join(' ')}`;
    })
    .join('; ');
}
