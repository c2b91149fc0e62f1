/** The simulator's configuration: parsed once from the command line, validated, defaulted, frozen. */
import { parseArgs } from 'node:util';
import { freshSeed } from '../ids/seeded-ids.js';
import type { ApiKey, Environment } from '../pipeline/authenticate.js';

export interface SimulatorConfig {
  readonly host: string;
  readonly port: number;
  readonly seed: string;
  readonly environment: Environment;
  readonly keys: readonly ApiKey[];
  /** The webhook receiver every tenant starts with (`PUT /_ofkit/webhooks/` changes a tenant's). */
  readonly webhook: { readonly url: string; readonly bearer_token: string | null } | null;
  /** `--break RULE-ID`: rules broken on purpose, to watch the conformance suite or Pact catch it. */
  readonly brokenRules: readonly string[];
  /** The client judge's options (`--judge-report`, `--judge-timing`, `--fault`, `--scenario`, probes). */
  readonly judge: JudgeConfig;
  /** `--help`: print the usage and exit. */
  readonly help: boolean;
}

export interface JudgeConfig {
  /** `--judge-report junit:PATH|json:PATH` (repeatable): written at shutdown. */
  readonly reports: readonly { readonly format: 'junit' | 'json'; readonly path: string }[];
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

/** The rules `--break` can break on purpose (each is checked by the conformance suite and Pact). */
export const BREAKABLE_RULES: readonly string[] = [
  'LINK-REFRESH-COOLDOWN',
  'DELETE-RATE-LIMIT',
  'RANGE-365',
  'ACCOUNT-DELETE-CASCADE',
  'PAY-AUTH-V2-REQUIRED',
  'PAY-INTENT-CANCEL-CUTOFF',
  'WEBHOOK-BEARER',
];

/** The options `simulate` and `exec` share (exec adds its own before `--`). */
export const SIMULATE_OPTIONS = `  -p, --port N             port (default 4010; 0 lets the OS choose)
  -h, --host H             interface (default 127.0.0.1); -h with no value is --help (Prism's -h is the host)
  --seed S                 seed of ids and data (printed at start; replays a run)
  --environment E          production (default) or sandbox
  --keys id:secret         a tenant key of that environment (repeatable; replaces the default keys)
  --webhook-url URL        deliver every tenant's events to URL (per tenant: PUT /_ofkit/webhooks/)
  --webhook-bearer TOKEN   with Authorization: Bearer TOKEN (WEBHOOK-BEARER)
  --break RULE-ID          break a rule on purpose (repeatable): LINK-REFRESH-COOLDOWN, DELETE-RATE-LIMIT,
                           RANGE-365, ACCOUNT-DELETE-CASCADE, PAY-AUTH-V2-REQUIRED, PAY-INTENT-CANCEL-CUTOFF,
                           WEBHOOK-BEARER
  client judge (README "Judge your client"):
  --judge-report F:PATH    at shutdown, write the judge's report: junit:PATH or json:PATH (repeatable)
  --judge-timing T         real (default): retry waits judged on real time; order-only: on order and count
  --fault OP:STATUS[:N]    the next N (default 1) requests of operationId OP answer STATUS: 500, 408, or
                           400 (the Too Many Sessions error), on every tenant (repeatable; reset clears)
  --scenario NAME[:N]      switch an institution scenario on for every tenant, N uses or until cleared:
                           institution_requires_token (a 428 on the next registration),
                           institution_refuses_credentials, next_charge_fails (repeatable)
  --webhook-duplicates     deliver every acknowledged event a second time, same webhook_id
  --webhook-forged         after each tenant's first acknowledged event, send one forged delivery without
                           the bearer token (needs --webhook-bearer)
  -h, --help               this text`;

export const SIMULATE_USAGE = `Usage: ofkit simulate [options]
${SIMULATE_OPTIONS}`;

/** Default keys, documented in the README: two production tenants and one sandbox key (AUTH-ENV-KEYS). */
export const DEFAULT_KEYS: readonly ApiKey[] = [
  { secretId: 'ofkit-key-a', secretPassword: 'ofkit-secret-a', environment: 'production' },
  { secretId: 'ofkit-key-b', secretPassword: 'ofkit-secret-b', environment: 'production' },
  { secretId: 'ofkit-sandbox-key', secretPassword: 'ofkit-sandbox-secret', environment: 'sandbox' },
];

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `id:secret` (the secret keeps any further colon): the one parser of keys on every command line. */
export function parseKey(text: string, flag = '--keys'): { secretId: string; secretPassword: string } {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1)
    throw new ConfigError(`${flag} wants id:secret, got "${text}"`);
  return { secretId: text.slice(0, colon), secretPassword: text.slice(colon + 1) };
}

/**
 * Prism's `-h HOST` and everyone's `-h` for help: `-h` followed by a value is the host, `-h` alone (or
 * before another option) is help.
 */
function hostOrHelp(argv: readonly string[]): string[] {
  return argv.map((arg, index) => {
    if (arg !== '-h') return arg;
    const next = argv[index + 1];
    return next !== undefined && !next.startsWith('-') ? '--host' : '--help';
  });
}

function parseBroken(rules: readonly string[]): readonly string[] {
  const unknown = rules.filter((rule) => !BREAKABLE_RULES.includes(rule));
  if (unknown.length > 0)
    throw new ConfigError(`--break knows ${BREAKABLE_RULES.join(', ')}; not ${unknown.join(', ')}`);
  return Object.freeze([...rules]);
}

/** `--webhook-url URL [--webhook-bearer TOKEN]` (WEBHOOK-BEARER). */
function parseWebhook(url: string | undefined, bearer: string | undefined): SimulatorConfig['webhook'] {
  if (url === undefined) {
    if (bearer !== undefined) throw new ConfigError('--webhook-bearer needs --webhook-url');
    return null;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`--webhook-url must be an http(s) URL, got "${url}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ConfigError(`--webhook-url must be an http(s) URL, got "${url}"`);
  }
  if (bearer === '') throw new ConfigError('--webhook-bearer must not be empty');
  return Object.freeze({ url, bearer_token: bearer ?? null });
}

const INSTITUTION_SCENARIOS = new Set([
  'institution_requires_token',
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

function parseJudge(values: Record<string, unknown>): JudgeConfig {
  const reports = ((values['judge-report'] as string[] | undefined) ?? []).map((text) => {
    const colon = text.indexOf(':');
    const format = text.slice(0, colon);
    if (colon <= 0 || (format !== 'junit' && format !== 'json') || colon === text.length - 1) {
      throw new ConfigError(`--judge-report wants junit:PATH or json:PATH, got "${text}"`);
    }
    return Object.freeze({ format: format as 'junit' | 'json', path: text.slice(colon + 1) });
  });
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

export function parseSimulatorConfig(argv: string[]): SimulatorConfig {
  const { values } = parseArgs({
    args: hostOrHelp(argv),
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', short: 'p', default: '4010' },
      seed: { type: 'string' },
      environment: { type: 'string', default: 'production' },
      keys: { type: 'string', multiple: true },
      'webhook-url': { type: 'string' },
      'webhook-bearer': { type: 'string' },
      break: { type: 'string', multiple: true },
      'judge-report': { type: 'string', multiple: true },
      'judge-timing': { type: 'string' },
      fault: { type: 'string', multiple: true },
      scenario: { type: 'string', multiple: true },
      'webhook-duplicates': { type: 'boolean', default: false },
      'webhook-forged': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535)
    throw new ConfigError(`--port must be 0-65535, got "${values.port}"`);
  if (values.environment !== 'production' && values.environment !== 'sandbox') {
    throw new ConfigError(`--environment must be production or sandbox, got "${values.environment}"`);
  }
  const environment: Environment = values.environment;
  const keys = values.keys?.length
    ? values.keys.map((key) => ({ ...parseKey(key), environment }))
    : DEFAULT_KEYS;
  const judge = parseJudge(values);
  if (judge.forged && values['webhook-bearer'] === undefined)
    throw new ConfigError('--webhook-forged needs --webhook-bearer');
  return Object.freeze({
    judge,
    host: values.host,
    port,
    seed: values.seed ?? freshSeed(),
    environment,
    keys: Object.freeze([...keys]),
    webhook: parseWebhook(values['webhook-url'], values['webhook-bearer']),
    brokenRules: parseBroken(values.break ?? []),
    help: values.help,
  });
}
