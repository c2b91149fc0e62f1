/**
 * The target's configuration: parsed once from the config file and the command line, validated against
 * property-tests/config.schema.json, defaulted, frozen (parsed once: nothing later re-reads or changes it).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { parseKeyPair } from '../../../openapi/config/api-keys.js';
import { ConfigError } from '../../../openapi/config/config-error.js';
import { isObject, type JsonObject, type JsonValue } from '../../../openapi/document/json.js';
import { DEFAULT_CONFIG, SANDBOX_DEFAULT_KEYS } from './default-config.js';
import type {
  ApiKeyConfig,
  Environment,
  PaymentsConfig,
  ReceiverConfig,
  TargetConfig,
} from './target-types.js';

// ajv-formats ships CommonJS; under nodenext its default export is the module object.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export const CONFIG_SCHEMA_PATH = resolve(import.meta.dirname, '../../config.schema.json');

export type {
  ApiKeyConfig,
  Environment,
  FixtureKind,
  PaymentsConfig,
  ReceiverConfig,
  Registration,
  TargetConfig,
} from './target-types.js';
export { ConfigError };

export interface ConfigSources {
  baseUrl?: string;
  /** The parsed config file. */
  file?: JsonValue;
  /** `--keys id:secret` values: the first is the primary key, the second the second tenant. */
  keys?: string[];
  env?: Record<string, string | undefined>;
  /** `--receiver-host` / `--receiver-url` (win over the file's `receiver`). */
  receiver?: Partial<ReceiverConfig>;
  /** `--environment` (wins over the file's `environment`). */
  environment?: Environment;
  /** `--operations` globs (win over the file's `operations.include`). */
  operations?: string[];
}

/** `${NAME}` strings read the environment, so that secrets stay out of config files. */
function expandEnv(value: JsonValue, env: Record<string, string | undefined>): JsonValue {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
      const found = env[name];
      if (found === undefined) throw new ConfigError(`The config names \${${name}}, which is not set.`);
      return found;
    });
  }
  if (Array.isArray(value)) return value.map((item) => expandEnv(item, env));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, expandEnv(child, env)]));
}

function validateFile(file: JsonValue): JsonObject {
  const schema = JSON.parse(readFileSync(CONFIG_SCHEMA_PATH, 'utf8')) as JsonObject;
  // The schema is the package's own: target-config.test.ts checks it against the JSON Schema meta-schema,
  // whose compiling cost each run about 0.1 s of CPU.
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (!validate(file)) {
    const problems = (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
    );
    throw new ConfigError(`The config file does not match config.schema.json:\n  ${problems.join('\n  ')}`);
  }
  return file as JsonObject;
}

export function parseKey(text: string): ApiKeyConfig {
  const { secretId, secretPassword } = parseKeyPair(text);
  return { id: secretId, secret: secretPassword };
}

function pickKeys(
  file: JsonObject,
  cliKeys: string[] | undefined,
  environment: Environment | null,
): TargetConfig['keys'] {
  if (cliKeys && cliKeys.length > 0) {
    const [primary, second] = cliKeys.map(parseKey);
    const fromFile = isObject(file.keys) ? (file.keys as Partial<TargetConfig['keys']>) : {};
    return { primary: primary!, second: second ?? null, otherEnvironment: fromFile.otherEnvironment ?? null };
  }
  if (isObject(file.keys)) {
    const keys = file.keys as Partial<TargetConfig['keys']>;
    return {
      primary: keys.primary!,
      second: keys.second ?? null,
      otherEnvironment: keys.otherEnvironment ?? null,
    };
  }
  // The simulator's keys of the environment asked for: its sandbox has one sandbox key.
  return environment === 'sandbox' ? SANDBOX_DEFAULT_KEYS : DEFAULT_CONFIG.keys;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Validates, applies the defaults in one place, and freezes. */
export function parseTargetConfig(sources: ConfigSources): TargetConfig {
  const env = sources.env ?? {};
  const file = validateFile(expandEnv(sources.file ?? {}, env));
  const baseUrl = sources.baseUrl ?? (typeof file.baseUrl === 'string' ? file.baseUrl : undefined);
  if (!baseUrl) throw new ConfigError('No base URL: give <base-url> or `baseUrl` in the config file.');
  try {
    new URL(baseUrl);
  } catch {
    throw new ConfigError(`Not a URL: "${baseUrl}"`);
  }
  const fixtures = { ...DEFAULT_CONFIG.fixtures, ...(file.fixtures as Partial<TargetConfig['fixtures']>) };
  const operations = isObject(file.operations)
    ? (file.operations as { include?: string[]; exclude?: string[] })
    : {};
  const include = sources.operations ?? operations.include ?? [];
  const includeFrom = sources.operations ? '--operations' : operations.include ? 'operations.include' : null;
  const { $schema: _schema, ...settings } = file;
  const environment = sources.environment ?? (file.environment as Environment | undefined) ?? null;
  const config: TargetConfig = {
    ...DEFAULT_CONFIG,
    ...(settings as Partial<TargetConfig>),
    baseUrl: baseUrl.replace(/\/+$/, ''),
    environment,
    keys: pickKeys(file, sources.keys, environment),
    fixtures,
    operations: { include, exclude: operations.exclude ?? [], includeFrom },
    fixturesGiven: isObject(file.fixtures) ? Object.keys(file.fixtures) : [],
    payments: { ...DEFAULT_CONFIG.payments, ...(file.payments as Partial<PaymentsConfig> | undefined) },
    receiver: {
      ...DEFAULT_CONFIG.receiver,
      ...(file.receiver as Partial<ReceiverConfig> | undefined),
      ...sources.receiver,
    },
  };
  const announced = config.receiver.url;
  if (announced !== null && !/^https?:\/\/[^/]/.test(announced)) {
    throw new ConfigError(`--receiver-url wants an http(s) URL, got "${announced}"`);
  }
  return deepFreeze(structuredClone(config));
}
