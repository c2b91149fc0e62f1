/** The simulator's configuration: parsed once from the command line, validated, defaulted, frozen. */
import { parseArgs } from 'node:util';
import { parseBrokenRules, UnknownRuleError } from '../broken-rules/breakable-rules.js';
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
  /** `--help`: print the usage and exit. */
  readonly help: boolean;
}

export const SIMULATE_USAGE = `Usage: ofkit simulate [options]
  --port N                 port (default 4010; 0 lets the OS choose)
  --host H                 interface (default 127.0.0.1)
  --seed S                 seed of ids and data (printed at start; replays a run)
  --environment E          production (default) or sandbox
  --keys id:secret         a tenant key of that environment (repeatable; replaces the default keys)
  --webhook-url URL        deliver every tenant's events to URL (per tenant: PUT /_ofkit/webhooks/)
  --webhook-bearer TOKEN   with Authorization: Bearer TOKEN (WEBHOOK-BEARER)
  --break RULE-ID          break a rule on purpose (repeatable): any server rule ID of the rule catalogue
                           (AUTH-BASIC ... PAY-SANDBOX; the list: simulator/src/broken-rules/breakable-rules.ts)
  --help                   this text`;

/** Default keys, documented in the README: two production tenants and one sandbox key (AUTH-ENV-KEYS). */
export const DEFAULT_KEYS: readonly ApiKey[] = [
  { secretId: 'ofkit-key-a', secretPassword: 'ofkit-secret-a', environment: 'production' },
  { secretId: 'ofkit-key-b', secretPassword: 'ofkit-secret-b', environment: 'production' },
  { secretId: 'ofkit-sandbox-key', secretPassword: 'ofkit-sandbox-secret', environment: 'sandbox' },
];

export class ConfigError extends Error {}

function parseKey(text: string, environment: Environment): ApiKey {
  const colon = text.indexOf(':');
  if (colon <= 0 || colon === text.length - 1) throw new ConfigError(`--keys wants id:secret, got "${text}"`);
  return { secretId: text.slice(0, colon), secretPassword: text.slice(colon + 1), environment };
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

/** `--break`: only IDs of the catalogue of breakable rules (the error lists them, on one line). */
function knownRules(ids: readonly string[]): readonly string[] {
  try {
    return [...parseBrokenRules(ids)];
  } catch (error) {
    if (error instanceof UnknownRuleError) throw new ConfigError(error.message);
    throw error;
  }
}

export function parseSimulatorConfig(argv: string[]): SimulatorConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '4010' },
      seed: { type: 'string' },
      environment: { type: 'string', default: 'production' },
      keys: { type: 'string', multiple: true },
      'webhook-url': { type: 'string' },
      'webhook-bearer': { type: 'string' },
      break: { type: 'string', multiple: true },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new ConfigError(`--port must be 0-65535, got "${values.port}"`);
  if (values.environment !== 'production' && values.environment !== 'sandbox') {
    throw new ConfigError(`--environment must be production or sandbox, got "${values.environment}"`);
  }
  const environment: Environment = values.environment;
  const keys = values.keys?.length ? values.keys.map((key) => parseKey(key, environment)) : DEFAULT_KEYS;
  return Object.freeze({
    host: values.host,
    port,
    seed: values.seed ?? freshSeed(),
    environment,
    keys: Object.freeze([...keys]),
    webhook: parseWebhook(values['webhook-url'], values['webhook-bearer']),
    brokenRules: Object.freeze([...knownRules(values.break ?? [])]),
    help: values.help,
  });
}
