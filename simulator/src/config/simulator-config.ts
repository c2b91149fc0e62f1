/** The simulator's configuration: parsed once from the command line, validated, defaulted, frozen. */
import { isIP } from 'node:net';
import { parseArgs } from 'node:util';
import { parseKeyPair } from '../../../openapi/config/api-keys.js';
import { ConfigError } from '../../../openapi/config/config-error.js';
import { parseCidr } from '../../../openapi/security/address-ranges.js';
import { parseAllowedHost, parsePublicUrl } from '../../../openapi/security/host-check.js';
import { PUBLISHED_KEYS } from '../../../openapi/security/published-keys.js';
import {
  BREAK_LISTINGS,
  type BrokenRulesOption,
  breakOption,
  UnknownRuleError,
} from '../broken-rules/breakable-rules.js';
import type { ApiKey, Environment } from '../core/keys.js';
import { freshSeed } from '../ids/seeded-ids.js';
import {
  JUDGE_FLAGS,
  JUDGE_OPTIONS,
  type JudgeConfig,
  parseJudge,
  parseJudgeEnabled,
} from '../judge/judge-config.js';
import { redisUrlProblem } from '../store/redis-url.js';

export type { JudgeConfig } from '../judge/judge-config.js';

/** `--log-level`: the console's webhook lines, a summary at shutdown (info) or every attempt (debug). */
export type LogLevel = 'info' | 'debug';
const LOG_LEVELS: readonly LogLevel[] = ['info', 'debug'];

export type StoreChoice = { readonly kind: 'memory' } | { readonly kind: 'redis'; readonly url: string };

/** Deliveries held back and reordered (webhooks/held-deliveries.ts), every tenant's default. */
export interface WebhookDelivery {
  readonly delivery_delay_seconds: number;
  readonly delivery_order: 'raised' | 'interleaved';
}

/** With `--break RULE-ID[:name]`'s rules, broken on purpose to watch the conformance suite or Pact catch them. */
export interface SimulatorConfig extends Required<BrokenRulesOption> {
  readonly host: string;
  readonly port: number;
  readonly seed: string;
  readonly environment: Environment;
  readonly keys: readonly ApiKey[];
  /** The webhook receiver every tenant starts with (`PUT /_ofkit/webhooks/` changes a tenant's). */
  readonly webhook: { readonly url: string; readonly bearer_token: string | null } | null;
  /** `--webhook-delay`, `--webhook-interleave`: how every tenant's deliveries are held and ordered. */
  readonly webhookDelivery: WebhookDelivery;
  /** `--storm`: the forward-compatibility storm on for every tenant that set nothing. */
  readonly storm: boolean;
  /** `--recurrent-life DAYS`: every recurrent link registered gets its life script (null: none). */
  readonly recurrentLife: number | null;
  /** `--store`: where tenant state lives: this process's memory (default) or a Redis replicas share. */
  readonly store: StoreChoice;
  /** `--document FILE`: a user's OpenAPI document; Prism answers the operations the bundled one lacks. */
  readonly document: string | null;
  /** The client judge's options (`--judge-report`, `--judge-timing`, `--fault`, `--scenario`, probes). */
  readonly judge: JudgeConfig;
  /** false with `--no-judge`: the simulator neither logs nor judges (SimulatorOptions.judge). */
  readonly judgeEnabled: boolean;
  readonly logLevel: LogLevel;
  /** `--allowed-host NAME` (repeatable): Host names answered besides localhost and IP literals; `all`: any. */
  readonly allowedHosts: readonly string[];
  /** `--public-url URL`: where clients reach the simulator (a reverse proxy); links are built from it. */
  readonly publicUrl: string | null;
  /** `--allow-default-keys`: serve the published default keys beyond loopback anyway. */
  readonly allowDefaultKeys: boolean;
  /** `--webhook-allow HOST|CIDR` (repeatable): internal destinations allowed beyond loopback. */
  readonly webhookAllow: readonly string[];
  /** `--help`: print the usage and exit. */
  readonly help: boolean;
}

/** The options `simulate` and `exec` share (exec adds its own before `--`). */
export const SIMULATE_OPTIONS = `  -p, --port N             port (default 4010; 0 lets the OS choose)
  -h, --host H             interface (default 127.0.0.1); -h with no value is --help (Prism's -h is the host).
                           Beyond loopback the published default keys are refused: give --keys, or
                           --allow-default-keys to serve them anyway
  --allowed-host NAME      a Host name to answer besides localhost, *.localhost and IP addresses
                           (repeatable; .example.com: that domain and its subdomains; all: any Host,
                           which lets a web page reach the simulator through DNS rebinding)
  --public-url URL         the URL clients reach the simulator at (a reverse proxy): its host is
                           answered and pagination links are built from it
  --allow-default-keys     listen beyond loopback with the published default keys anyway
  --seed S                 seed of ids and data (printed at start; replays a run)
  --environment E          production (default) or sandbox
  --keys id:secret         a tenant key of that environment (repeatable; replaces the default keys)
  --webhook-url URL        deliver every tenant's events to URL (per tenant: PUT /_ofkit/webhooks/)
  --webhook-bearer TOKEN   with Authorization: Bearer TOKEN (WEBHOOK-BEARER)
  --webhook-allow HOST|CIDR  beyond loopback, webhooks to loopback, link-local, private and unique-local
                           addresses are refused: allow this host name (.example.com: and its
                           subdomains) or address range (10.20.0.0/16) anyway (repeatable)
  --webhook-delay SECONDS  hold each delivery back on the tenant's clock, so a client may read the
                           data before it hears of it (per tenant: delivery_delay_seconds)
  --webhook-interleave     deliver the events held together in another order than raised (needs
                           --webhook-delay; per tenant: delivery_order interleaved)
  --storm                  the forward-compatibility storm for every tenant: answers and deliveries as a
                           newer API version may send them, marked x-ofkit-storm (per tenant:
                           PUT /_ofkit/storm/)
  --recurrent-life DAYS    every recurrent link registered gets its life script of DAYS days (4-90) on
                           the tenant's clock: daily refreshes, a historical update, credentials refused,
                           a token required, the link deleted (per link: POST /_ofkit/recurrent-lives/;
                           move the clock a day at a time, GET /_ofkit/recurrent-lives/ says finished)
  --store memory|URL       where tenant state lives: memory (default: this process only) or
                           redis://HOST:PORT/DB, or redis+cluster://HOST:PORT,HOST:PORT (a Redis
                           Cluster), shared by every simulator started on it (replicas); rediss://
                           and rediss+cluster:// with TLS (a private CA: NODE_EXTRA_CA_CERTS); options
                           ?connect_timeout_ms=5000&command_timeout_ms=10000&job_lease_ms=30000
  --document FILE          a newer OpenAPI document (JSON or YAML, one file): its operations the bundled
                           document lacks are answered by Prism from its examples (listed at start);
                           every other operation stays stateful
  --break RULE-ID[:name]   break a rule on purpose (repeatable): a server rule ID of the rule catalogue
                           (its first break), or RULE-ID:name (another; ofkit simulate --help lists them)
${JUDGE_OPTIONS}
  --log-level L            webhook lines on the console: info (default: one summary line at shutdown)
                           or debug (a line per delivery attempt); GET /_ofkit/events/ keeps them all
  -h, --help               this text`;

/** Every break of the catalogue, one a line: what `--break` takes and what it does. */
export const BREAKS_HELP = [
  "Breaks (--break NAME; the README's teeth matrix shows the suite catching each):",
  ...BREAK_LISTINGS.map(({ name, description }) => `  ${name.padEnd(35)} ${description}`),
].join('\n');

export const SIMULATE_USAGE = `Usage: ofkit simulate [options]
${SIMULATE_OPTIONS}`;

/** Default keys, documented in the README: two production tenants and one sandbox key (AUTH-ENV-KEYS). */
export const DEFAULT_KEYS: readonly ApiKey[] = PUBLISHED_KEYS;

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

/** `--webhook-allow HOST|CIDR`: a host name (a leading `.` for its subdomains) or an address range. */
function parseWebhookAllow(text: string): string {
  if (parseCidr(text) !== undefined || /^\.?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$/.test(text) || isIP(text) !== 0)
    return text.toLowerCase();
  throw new ConfigError(`--webhook-allow wants a host name or a CIDR (10.20.0.0/16), got "${text}"`);
}

/** `--webhook-delay SECONDS [--webhook-interleave]` (delivery_delay_seconds and delivery_order). */
function parseWebhookDelivery(delay: string | undefined, interleave: boolean): WebhookDelivery {
  const seconds = delay === undefined ? 0 : Number(delay);
  if (delay !== undefined && (!/^\d+(\.\d+)?$/.test(delay) || seconds > 86_400))
    throw new ConfigError(`--webhook-delay must be seconds from 0 to 86400, got "${delay}"`);
  if (interleave && seconds === 0)
    throw new ConfigError(
      '--webhook-interleave needs --webhook-delay above 0 (it reorders deliveries held back)',
    );
  return Object.freeze({
    delivery_delay_seconds: seconds,
    delivery_order: interleave ? 'interleaved' : 'raised',
  });
}

/** `--recurrent-life DAYS`: the bounds of `POST /_ofkit/recurrent-lives/` (4 to 90 days). */
function parseRecurrentLife(days: string | undefined): number | null {
  if (days === undefined) return null;
  const count = Number(days);
  if (!/^\d+$/.test(days) || count < 4 || count > 90)
    throw new ConfigError(`--recurrent-life must be a number of days from 4 to 90, got "${days}"`);
  return count;
}

const MEMORY_STORE: StoreChoice = Object.freeze({ kind: 'memory' });

/** `--store memory`, `--store redis://HOST:PORT/DB` or `--store redis+cluster://HOST:PORT,...`. */
function parseStore(text: string): StoreChoice {
  if (text === 'memory') return MEMORY_STORE;
  if (!/^(rediss?|rediss?\+cluster):/i.test(text))
    throw new ConfigError(
      `--store must be memory, redis://HOST:PORT/DB or redis+cluster://HOST:PORT,HOST:PORT, got "${text}"`,
    );
  const problem = redisUrlProblem(text);
  if (problem !== undefined) throw new ConfigError(`--store ${problem}`);
  return Object.freeze({ kind: 'redis', url: text });
}

/** `--break`: only IDs of the catalogue of breakable rules (the error lists them, on one line). */
function knownRules(ids: readonly string[]): Required<BrokenRulesOption> {
  try {
    return breakOption(ids);
  } catch (error) {
    if (error instanceof UnknownRuleError) throw new ConfigError(error.message);
    throw error;
  }
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
      'webhook-delay': { type: 'string' },
      'webhook-interleave': { type: 'boolean', default: false },
      storm: { type: 'boolean', default: false },
      'recurrent-life': { type: 'string' },
      store: { type: 'string', default: 'memory' },
      document: { type: 'string' },
      break: { type: 'string', multiple: true },
      ...JUDGE_FLAGS,
      'log-level': { type: 'string', default: 'info' },
      'allowed-host': { type: 'string', multiple: true },
      'public-url': { type: 'string' },
      'allow-default-keys': { type: 'boolean', default: false },
      'webhook-allow': { type: 'string', multiple: true },
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
    ? values.keys.map((key) => ({ ...parseKeyPair(key), environment }))
    : DEFAULT_KEYS;
  const logLevel = values['log-level'] as LogLevel;
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`--log-level must be ${LOG_LEVELS.join(' or ')}, got "${logLevel}"`);
  const judge = parseJudge(values);
  const judgeEnabled = parseJudgeEnabled(values);
  if (judge.forged && values['webhook-bearer'] === undefined)
    throw new ConfigError('--webhook-forged needs --webhook-bearer');
  return Object.freeze({
    judge,
    judgeEnabled,
    host: values.host,
    port,
    seed: values.seed ?? freshSeed(),
    environment,
    keys: Object.freeze([...keys]),
    webhook: parseWebhook(values['webhook-url'], values['webhook-bearer']),
    webhookDelivery: parseWebhookDelivery(values['webhook-delay'], values['webhook-interleave']),
    storm: values.storm,
    recurrentLife: parseRecurrentLife(values['recurrent-life']),
    store: parseStore(values.store),
    document: values.document ?? null,
    ...knownRules(values.break ?? []),
    logLevel,
    allowedHosts: Object.freeze((values['allowed-host'] ?? []).map(parseAllowedHost)),
    publicUrl: values['public-url'] === undefined ? null : parsePublicUrl(values['public-url']),
    allowDefaultKeys: values['allow-default-keys'],
    webhookAllow: Object.freeze((values['webhook-allow'] ?? []).map(parseWebhookAllow)),
    help: values.help,
  });
}
