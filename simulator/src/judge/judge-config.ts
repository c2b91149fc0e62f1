/**
 * The client judge's command-line options (`ofkit simulate` and `ofkit exec`): reports, timing and the
 * situations injected at start (faults, institution scenarios, webhook probes).
 */
import { ConfigError } from '../../../openapi/config/config-error.js';
import { parseReportTarget, type ReportTarget } from '../../../openapi/report/report-target.js';

/** The judge's options, parsed once. */
export interface JudgeConfig {
  /** `--judge-report junit:PATH|json:PATH|md:PATH` (repeatable): written at shutdown. */
  readonly reports: readonly ReportTarget[];
  /** `--judge-timing real|order-only`: `order-only` when the client's timers are faked. */
  readonly timing: 'real' | 'order-only';
  /** `--fault OPERATION:STATUS[:COUNT]`: injected on every tenant at start (400: Too Many Sessions). */
  readonly faults: readonly {
    readonly operation_id: string;
    readonly status: 400 | 408 | 500;
    readonly count: number;
  }[];
  /** `--scenario NAME[:COUNT]`: an institution scenario switched on for every tenant at start. */
  readonly scenarios: readonly { readonly scenario: string; readonly count: number | null }[];
  readonly duplicates: boolean;
  readonly forged: boolean;
}

/** The usage lines of the judge's options. */
export const JUDGE_OPTIONS = `  client judge (README "Judge your client"):
  --judge-report F:PATH    at shutdown, write the judge's report: junit:PATH, json:PATH or md:PATH (repeatable)
  --judge-timing T         real (default): retry waits judged on real time; order-only: on order and count
  --fault OP:STATUS[:N]    the next N (default 1) requests of operationId OP answer STATUS: 500, 408, or
                           400 (the Too Many Sessions error), on every tenant (repeatable; reset clears)
  --scenario NAME[:N]      switch an institution scenario on for every tenant, N uses or until cleared:
                           institution_requires_token (a 428 on the next registration),
                           institution_requires_another_token (a second 428, on the next resume),
                           institution_refuses_credentials, next_charge_fails (repeatable)
  --webhook-duplicates     deliver every acknowledged event a second time, same webhook_id
  --webhook-forged         after each tenant's first acknowledged event, send one forged delivery without
                           the bearer token (needs --webhook-bearer)
  --no-judge               no client judge: nothing is logged or judged (GET /_ofkit/judge/ and
                           /_ofkit/requests/ answer 409 judge_off)`;

/** The judge's flags for `parseArgs`. */
export const JUDGE_FLAGS = {
  'judge-report': { type: 'string', multiple: true },
  'judge-timing': { type: 'string' },
  fault: { type: 'string', multiple: true },
  scenario: { type: 'string', multiple: true },
  'webhook-duplicates': { type: 'boolean', default: false },
  'webhook-forged': { type: 'boolean', default: false },
  'no-judge': { type: 'boolean', default: false },
} as const;

/** The flags that ask the judge for something, which `--no-judge` refuses beside it. */
const NEEDS_THE_JUDGE = ['judge-report', 'judge-timing', 'webhook-duplicates', 'webhook-forged'] as const;

/** `--no-judge`: whether the judge runs (true unless given); ConfigError beside a flag that needs it. */
export function parseJudgeEnabled(values: Record<string, unknown>): boolean {
  if (values['no-judge'] !== true) return true;
  const asked = NEEDS_THE_JUDGE.filter((flag) => {
    const value = values[flag];
    return Array.isArray(value) ? value.length > 0 : value !== undefined && value !== false;
  });
  if (asked.length > 0)
    throw new ConfigError(`--no-judge turns the client judge off; drop it or --${asked.join(', --')}`);
  return false;
}

const INSTITUTION_SCENARIOS = new Set([
  'institution_requires_token',
  'institution_requires_another_token',
  'institution_refuses_credentials',
  'next_charge_fails',
]);

function parseCount(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const count = Number(text);
  if (!Number.isInteger(count) || count < 1)
    throw new ConfigError(`${flag} wants a count of 1 or more, got "${text}"`);
  return count;
}

/** Reads the judge's flags from parsed values; ConfigError on a malformed one. */
export function parseJudge(values: Record<string, unknown>): JudgeConfig {
  const reports = ((values['judge-report'] as string[] | undefined) ?? []).map((text) =>
    parseReportTarget(text, '--judge-report'),
  );
  const timing = values['judge-timing'] ?? 'real';
  if (timing !== 'real' && timing !== 'order-only')
    throw new ConfigError(`--judge-timing must be real or order-only, got "${timing}"`);
  const faults = ((values.fault as string[] | undefined) ?? []).map((text) => {
    const [operation_id = '', status = '', count] = text.split(':');
    if (!operation_id || !['400', '408', '500'].includes(status)) {
      throw new ConfigError(
        `--fault wants OPERATION:STATUS[:COUNT] with STATUS 400, 408 or 500, got "${text}"`,
      );
    }
    return Object.freeze({
      operation_id,
      status: Number(status) as 400 | 408 | 500,
      count: parseCount(count, '--fault') ?? 1,
    });
  });
  const scenarios = ((values.scenario as string[] | undefined) ?? []).map((text) => {
    const [scenario = '', count] = text.split(':');
    if (!INSTITUTION_SCENARIOS.has(scenario)) {
      throw new ConfigError(
        `--scenario wants one of ${[...INSTITUTION_SCENARIOS].join(', ')}, got "${text}"`,
      );
    }
    return Object.freeze({ scenario, count: parseCount(count, '--scenario') ?? null });
  });
  const duplicates = values['webhook-duplicates'] === true;
  const forged = values['webhook-forged'] === true;
  return Object.freeze({ reports, timing, faults, scenarios, duplicates, forged });
}
