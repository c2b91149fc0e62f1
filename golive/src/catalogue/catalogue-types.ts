/**
 * The shapes of the two data files golive ships: the situations (situations.yaml) and the go-live
 * checklist (checklist.yaml). Both are data, read once and frozen; golive/README.md says how to add to them.
 */
import type { ClockStep, Environment } from '../../../simulator/src/index.js';

/** The next `count` requests of `operation` answer `status` (400: the Too Many Sessions error). */
export interface FaultConfig {
  readonly operation: string;
  readonly status: 400 | 408 | 500;
  readonly count: number;
}

/** A scenario switch on every institution and link; `count` null: until cleared. */
export interface ScenarioConfig {
  readonly scenario: string;
  readonly count: number | null;
}

/** The simulator a situation runs the client against: everything that makes it reproducible. */
export interface SituationConfig {
  readonly seed: string;
  readonly environment: Environment;
  readonly faults: readonly FaultConfig[];
  readonly scenarios: readonly ScenarioConfig[];
  /**
   * The judge's probes of the client's receiver (repeated deliveries, a forged one), and how the tenant's
   * deliveries are held back and ordered (`ofkit simulate --webhook-delay`, `--webhook-interleave`).
   */
  readonly webhooks: {
    readonly duplicates: boolean;
    readonly forged: boolean;
    readonly delivery_delay_seconds?: number;
    readonly delivery_order?: 'raised' | 'interleaved';
  };
  /** Applied at start and after each reset, in order. */
  readonly clock: readonly ClockStep[];
  /** The forward-compatibility storm: answers and deliveries as a newer API version may send them. */
  readonly storm?: boolean;
  /**
   * Every recurrent link the client registers gets the life script of `days` days (`ofkit simulate
   * --recurrent-life`), which golive plays a day at a time while the client runs.
   */
  readonly recurrent_life?: { readonly days: number };
}

/**
 * What shows that the client met the situation: a client rule the judge exercised (followed or
 * violated, not "not exercised"), a request answered with one of `status` (of `operation`, with the
 * error `code`, when given), some list read through `next` to the page whose `next` is null, every
 * delivery held back delivered before the client ended, or a recurrent link's life played to its end
 * while the client ran.
 */
export type MetCondition =
  | { readonly exercised: string }
  | { readonly list_read_to_the_end: true }
  | { readonly held_deliveries_delivered: true }
  | { readonly life_played_to_the_end: true }
  | {
      readonly answered: {
        readonly operation?: string;
        readonly status: readonly number[];
        readonly code?: string;
      };
    };

export interface Situation {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly simulator: SituationConfig;
  /** The checklist items a finding in this situation is a finding of. */
  readonly bears_on: readonly string[];
  /** Every condition must hold for the client to have met the situation. */
  readonly met_when: readonly MetCondition[];
  /** What the client must do in it (the checklist's words). */
  readonly client_must: string;
  /** What the client's tests would have to do to meet it. */
  readonly to_meet: string;
}

export interface ChecklistItem {
  readonly id: string;
  readonly title: string;
  /** What the reviewer asks. */
  readonly asks: string;
  /** The client rules that decide it: violated in any situation, the item is Not ready. */
  readonly rules: readonly string[];
  /** The situations the client must meet (and survive) for the item to be Ready. */
  readonly situations: readonly string[];
  /** What the item waits for before it can be assessed (shown while it is not). */
  readonly needs?: string;
  /**
   * A situation the client's runs in `situations` are compared with, for an item decided by no rule of
   * its own (forward compatibility): a client rule violated there but not in this one is a violation.
   */
  readonly compared_with?: string;
}

export interface Catalogue {
  readonly situations: readonly Situation[];
  readonly items: readonly ChecklistItem[];
}
