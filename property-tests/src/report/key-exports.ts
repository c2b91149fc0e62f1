/**
 * The one `export` line printed before a failure's curl commands and replay commands, naming every key
 * variable they use (`$OFKIT_KEY`, `$OFKIT_SECRET_2`, `$OFKIT_OTHER_KEY`...), so that they run as pasted.
 * A secret is never printed (CLIENT-NO-SECRETS): a variable takes its value from where the secret came
 * from (`"$OFKIT_SECRET"` of the environment, the `${NAME}` of the config file); only the simulator's
 * documented keys, which are public, are written out. A secret typed on the command line cannot be
 * named: its variable shows a placeholder to replace.
 */
import { isObject, type JsonValue } from '../../../openapi/document/json.js';
import { shellQuote } from '../../../openapi/security/shell-quote.js';
import { KEY_VARIABLES } from '../http/masked-auth.js';
import { DEFAULT_CONFIG, SANDBOX_DEFAULT_KEYS } from '../target/default-config.js';
import type { ApiKeyConfig, TargetConfig } from '../target/target-config.js';

/** Where the configured keys came from. */
export interface KeySources {
  /** `$OFKIT_KEY` / `$OFKIT_SECRET` of the environment gave the primary key. */
  primaryFromEnvironment: boolean;
  /** The config file as written (before `${NAME}` expansion). */
  rawFile?: JsonValue;
}

type KeyName = keyof typeof KEY_VARIABLES;
const NAMES: readonly KeyName[] = ['primary', 'second', 'otherEnvironment'];

/** The simulator's documented keys (README): printing them gives nothing away. */
const PUBLIC_KEYS: readonly ApiKeyConfig[] = [
  DEFAULT_CONFIG.keys.primary,
  DEFAULT_CONFIG.keys.second,
  DEFAULT_CONFIG.keys.otherEnvironment,
  SANDBOX_DEFAULT_KEYS.primary,
].filter((key): key is ApiKeyConfig => key !== null);

const isPublic = (key: ApiKeyConfig) =>
  PUBLIC_KEYS.some((known) => known.id === key.id && known.secret === key.secret);

/** The `${NAME}` a config file wrote for keys.<name>.<field>, when it is exactly one variable. */
function fileVariable(raw: JsonValue | undefined, name: KeyName, field: 'id' | 'secret'): string | undefined {
  const keys = isObject(raw) && isObject(raw.keys) ? raw.keys : undefined;
  const key = keys && isObject(keys[name]) ? keys[name] : undefined;
  const text = key?.[field];
  const match = typeof text === 'string' ? /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(text) : null;
  return match?.[1];
}

function secretWord(key: ApiKeyConfig, name: KeyName, sources: KeySources): string {
  if (isPublic(key)) return shellQuote(key.secret);
  if (name === 'primary' && sources.primaryFromEnvironment) return '"$OFKIT_SECRET"';
  const variable = fileVariable(sources.rawFile, name, 'secret');
  if (variable) return `"$${variable}"`;
  return shellQuote(`<the secret of key ${key.id}>`);
}

/** Variable name (without `$`) -> the shell word that sets it, for every configured key. */
export function keyValues(keys: TargetConfig['keys'], sources: KeySources): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of NAMES) {
    const key = keys[name];
    if (!key) continue;
    const { user, password } = KEY_VARIABLES[name];
    values[user.slice(1)] = shellQuote(key.id);
    values[password.slice(1)] = secretWord(key, name, sources);
  }
  return values;
}

/** The `$OFKIT_*` variables `text` uses, in a stable order. */
export function variablesIn(text: string): string[] {
  return [...new Set([...text.matchAll(/\$(OFKIT_[A-Z0-9_]+)/g)].map((match) => match[1]!))].sort();
}

/** `export OFKIT_KEY='...' OFKIT_SECRET='...'` for every variable `text` uses; '' when it uses none. */
export function exportLine(text: string, values: Readonly<Record<string, string>> | undefined): string {
  const used = variablesIn(text);
  if (used.length === 0) return '';
  const words = used.map((name) => `${name}=${values?.[name] ?? shellQuote(`<set ${name}>`)}`);
  return `export ${words.join(' ')}`;
}
