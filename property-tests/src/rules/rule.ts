/**
 * The rule interface: one rule ID of the catalogue (openapi/rules.yaml), one property. A rule says what it needs,
 * prepares what state it can, generates inputs with fast-check and checks one input against the target
 * per run. The runner owns seeds, runs, shrinking, recording and reports (property-tests/README.md).
 */
import type fc from 'fast-check';
import type { ApiDocument } from '../../../openapi/document/api-document.js';
import type { ApiOperation } from '../../../openapi/document/operation-index.js';
import { ruleTitle } from '../../../openapi/generated/rules.js';
import type { SchemaArbitraries } from '../arbitraries/schema-arbitrary.js';
import type { HttpSession } from '../http/http-client.js';
import type { Capabilities, Capability } from '../target/capabilities.js';
import type { Fixtures } from '../target/fixtures.js';
import type { TargetConfig } from '../target/target-config.js';
import type { Environment } from '../target/target-types.js';
import { isSkip, type Skip } from './skip.js';

export type RuleArea = 'cross-cutting' | 'schema' | 'links' | 'data' | 'webhooks' | 'payments';

/** What every rule sees: the target, the document, and set-up helpers. */
export interface SuiteContext {
  config: TargetConfig;
  capabilities: Capabilities;
  document: ApiDocument;
  schemas: SchemaArbitraries;
  /**
   * The operations of the run's scope: the document's, narrowed by `--operations` (or the config's
   * `operations.include`) and the config's `operations.exclude`.
   */
  operations: ApiOperation[];
  /**
   * The target's environment (the config's, `--environment`, or what GET /api/ says) and the
   * operations documented as unavailable there, with the reason (operationId -> reason).
   */
  environment: Environment;
  unavailable: ReadonlyMap<string, string>;
  fixtures: Fixtures;
  /** A session for set-up; its exchanges are not part of failure reports. */
  http: HttpSession;
  /** `--strict`: undocumented response members fail the shape rows (otherwise they are noted). */
  strict: boolean;
}

/** What one run sees: its own recording session (the curl reproduction of a failure). */
export interface RunContext extends SuiteContext {
  http: HttpSession;
}

export { isSkip, notSetUp, type Skip, skip, skipForEnvironment } from './skip.js';

/** A rule as its file writes it. `Input` is what fast-check generates; `Fixture` what `prepare` set up. */
export interface RuleDefinition<Input, Fixture> {
  /** The rule ID of the catalogue (or `SCHEMA:<operationId>` and `MODEL-*` for the suite's own rows). */
  id: string;
  /** The ID, a colon and the rule's sentence; rules of the catalogue take theirs from it. */
  title?: string;
  area: RuleArea;
  /**
   * SCHEMA rows: the operation whose success answers are the row's evidence. The row passes only when
   * the run saw that operation answer a success status with a valid body; otherwise it is inconclusive.
   */
  operationId?: string;
  /** Capabilities without which the rule is skipped (with the reason). */
  needs?: readonly Capability[];
  /**
   * The operations (operationIds) the rule cannot do without: outside the run's scope (`--operations`)
   * the rule is not run; one the target does not implement (it never answered a success status, only
   * 404, 405 or 501) makes the rule `inconclusive`, "not implemented: METHOD path".
   */
  operations?: readonly string[];
  /**
   * A rule that works over any operation of a kind (lists, retrievals): that kind. With none of it in
   * the run's scope the rule is not run; when the target implements none of it, it is inconclusive.
   */
  over?: (operation: ApiOperation) => boolean;
  /**
   * What the rule changes of the whole tenant through the control API: its clock (`clock`), or its
   * scenario switches, faults or webhook receiver (`switches`). Such a rule runs with no other rule at
   * once; one that moves the clock starts from a tenant without the links earlier rules left, where the
   * run owns the tenant (runner/rule-schedule.ts).
   */
  tenantWide?: 'clock' | 'switches';
  /**
   * The rule only provokes errors: it stores nothing (set-up included) and compares no list, so it runs
   * beside any rule that does not change the whole tenant (runner/rule-schedule.ts).
   */
  quiet?: true;
  /** Runs when `--runs` is not given (default: the runner's). */
  runs?: number;
  /** ERR-500-408 provokes 5xx on purpose; every other rule fails on any 5xx it sees. */
  allows5xx?: boolean;
  /** State the runs share (a link, records); a Skip reports the rule skipped. `note` adds to the report. */
  prepare?: (suite: SuiteContext, note: (text: string) => void) => Promise<Fixture | Skip>;
  /** The inputs; shrinking works on them. */
  arbitrary: (suite: SuiteContext, fixture: Fixture) => fc.Arbitrary<Input>;
  /** Inputs always tried first (exhaustive cases), on top of the random runs. */
  examples?: (suite: SuiteContext, fixture: Fixture) => Input[];
  /** One run: throws (Violation) when the target breaks the rule. */
  check: (input: Input, run: RunContext, fixture: Fixture) => Promise<void>;
  /** Notes for the report once the runs are over (e.g. the statuses seen). */
  summarize?: (fixture: Fixture) => string[];
}

/** A rule ready to run: inputs, examples and the check, with its fixture bound. */
export interface PreparedRule {
  arbitrary: fc.Arbitrary<unknown>;
  examples: unknown[];
  check(input: unknown, run: RunContext): Promise<void>;
  /** The set-up notes, then the rule's summary of its runs. */
  notes(): string[];
}

/** A rule with its types erased, as the runner holds it. */
export interface Rule {
  id: string;
  title: string;
  area: RuleArea;
  operationId?: string;
  needs: readonly Capability[];
  /** The operations it cannot do without (RuleDefinition.operations). */
  operations: readonly string[];
  over?: (operation: ApiOperation) => boolean;
  tenantWide?: 'clock' | 'switches';
  quiet?: true;
  runs?: number;
  allows5xx: boolean;
  prepare(suite: SuiteContext): Promise<PreparedRule | Skip>;
}

/** A catalogue rule's title is the catalogue's `<ID>: <statement>`; the suite's own rows bring one. */
function titleOf(definition: { id: string; title?: string }): string {
  const title = ruleTitle(definition.id) ?? definition.title;
  if (title === undefined)
    throw new Error(`rule ${definition.id} is not in openapi/rules.yaml and has no title`);
  return title;
}

/** Turns a rule file's definition into a Rule (the one place the generic types are erased). */
export function defineRule<Input, Fixture = undefined>(definition: RuleDefinition<Input, Fixture>): Rule {
  return {
    id: definition.id,
    title: titleOf(definition),
    area: definition.area,
    ...(definition.operationId === undefined ? {} : { operationId: definition.operationId }),
    needs: definition.needs ?? [],
    operations: definition.operations ?? [],
    ...(definition.over === undefined ? {} : { over: definition.over }),
    ...(definition.tenantWide === undefined ? {} : { tenantWide: definition.tenantWide }),
    ...(definition.quiet ? { quiet: true as const } : {}),
    ...(definition.runs === undefined ? {} : { runs: definition.runs }),
    allows5xx: definition.allows5xx ?? false,
    async prepare(suite) {
      const notes: string[] = [];
      const prepared = definition.prepare
        ? await definition.prepare(suite, (text) => notes.push(text))
        : (undefined as Fixture);
      if (isSkip(prepared)) return prepared;
      const fixture = prepared as Fixture;
      return {
        arbitrary: definition.arbitrary(suite, fixture) as fc.Arbitrary<unknown>,
        examples: definition.examples?.(suite, fixture) ?? [],
        check: (input, run) => definition.check(input as Input, run, fixture),
        notes: () => [...notes, ...(definition.summarize?.(fixture) ?? [])],
      };
    },
  };
}

/** A broken rule: the message says what the target did and what the rule wants. */
export class Violation extends Error {
  override name = 'Violation';
}

/** Fails the current run. */
export function fail(message: string): never {
  throw new Violation(message);
}

/**
 * A run that ended on a precondition (state the target did not give) before the rule's assertion: not
 * a pass. A rule whose every run ends so is reported `inconclusive` with the reason.
 */
export class Unmet extends Error {
  override name = 'Unmet';
}

/** Ends the current run without reaching the assertion, saying why. */
export function unmet(reason: string): never {
  throw new Unmet(reason);
}
