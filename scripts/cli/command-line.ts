/**
 * What every `ofkit` command shares: usage errors, the key and `--report kind:path` parsers, base URL
 * checks and the one-line wording of the failures a command line meets (exit code 2, never a trace).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { MissingDependencyError } from '../../openapi/config/optional-peers.js';
import { parseReportTarget, type ReportTarget } from '../../openapi/report/report-target.js';
import { didYouMean } from './did-you-mean.js';

export { parseKeyPair as parseKey } from '../../openapi/config/api-keys.js';

import { ConfigError } from '../../openapi/config/config-error.js';

export { ConfigError };

/** A command-line mistake: printed on one line (with the usage), exit code 2. */
export class UsageError extends Error {}

/** One `ofkit` command: a line for `ofkit --help`, and its run, which resolves with the exit code. */
export interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

export type { ReportKind, ReportTarget } from '../../openapi/report/report-target.js';

/**
 * `--report junit:PATH`, `json:PATH` or `md:PATH`: the one grammar of every command's reports; a value
 * it cannot use is a usage mistake of the command line (its help is named).
 */
export function parseReport(text: string): ReportTarget {
  try {
    return parseReportTarget(text, '--report');
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** Writes a report, creating the folders on its path. */
export function writeReport(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

/** A base URL given on the command line: http(s) with a scheme, no trailing slash. */
export function parseBaseUrl(text: string | undefined, what = 'base URL'): string {
  if (text === undefined) throw new UsageError(`give the ${what}`);
  if (!/^https?:\/\//i.test(text) || !URL.canParse(text))
    throw new UsageError(`${text} is not an http:// or https:// URL (the ${what} needs its scheme)`);
  return text.replace(/\/+$/, '');
}

/** `--port N`: 0-65535 (0 lets the OS choose). */
export function parsePort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535) throw new UsageError(`--port must be 0-65535, got "${text}"`);
  return port;
}

/** Undefined when something answers HTTP at `baseUrl` (any status), else the one-line reason. */
export async function unreachable(baseUrl: string, timeoutMs = 10_000): Promise<string | undefined> {
  // undici loads here, not with the module: `ofkit simulate` never needs it.
  const { request } = await import('undici');
  try {
    const answer = await request(`${baseUrl}/api/`, { headersTimeout: timeoutMs, bodyTimeout: timeoutMs });
    await answer.body.dump();
    return undefined;
  } catch (error) {
    const { code, message } = error as { code?: string; message: string };
    return `nothing answers at ${baseUrl} (${code ?? message})`;
  }
}

function isParseArgsError(error: unknown): boolean {
  return String((error as { code?: unknown }).code ?? '').startsWith('ERR_PARSE_ARGS');
}

/** Every `--flag` a command's usage text names: the words an unknown option is compared with. */
export function flagsOf(usage: string): string[] {
  return [...new Set(usage.match(/--[a-z][a-z0-9-]*/g) ?? [])];
}

/**
 * node:util's parseArgs errors in ofkit's words: the option and, for an unknown one, the closest
 * option the command has (`usage` names them). Node's own text explains its API, not the command.
 */
export function parseArgsLine(error: unknown, usage = ''): string {
  const { code, message } = error as { code?: string; message: string };
  const quoted = /'([^']+)'/.exec(message)?.[1] ?? '';
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = quoted.split('=')[0] ?? quoted;
    return `unknown option ${flag}${didYouMean(flag, flagsOf(usage))}`;
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return `unexpected argument "${quoted}"`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /--[a-z][a-z0-9-]*/.exec(message)?.[0] ?? quoted;
    return message.includes('does not take an argument') ? `${flag} takes no value` : `${flag} needs a value`;
  }
  return message;
}

/** The one line for a failure the user can fix, or undefined for a programmer mistake (rethrown). */
export function failureLine(error: unknown, usage = ''): string | undefined {
  const { code, message, port, address } = error as {
    code?: string;
    message: string;
    port?: number;
    address?: string;
  };
  if (error instanceof UsageError || error instanceof MissingDependencyError) return message;
  if (isParseArgsError(error)) return parseArgsLine(error, usage);
  // What a user gave that ofkit cannot use: a flag's value, a config file, a HAR or --allow file.
  if (error instanceof ConfigError) return message;
  // `--store redis://...` that cannot be reached: the URL and the cause.
  if (error instanceof Error && error.name === 'RedisStoreError') return message;
  if (code === 'EADDRINUSE')
    return `port ${port} on ${address} is in use (choose another with --port, or --port 0 for a free one)`;
  if (code === 'EADDRNOTAVAIL' || code === 'EACCES') return `cannot listen on ${address}:${port} (${code})`;
  return undefined;
}

export interface GuardOptions {
  /** A command whose libraries fail with their own messages (Pact: broker, verifier): any error is one line. */
  anyError?: boolean;
  /** The command's usage text: an unknown option is compared with the options it names. */
  usage?: string;
}

/**
 * Runs a command body: a usage or configuration error, a busy port... becomes one line on stderr
 * (`ofkit <name>: ...`) and exit code 2, never a stack trace.
 */
export async function runGuarded(
  name: string,
  body: () => Promise<number>,
  { anyError = false, usage = '' }: GuardOptions = {},
): Promise<number> {
  try {
    return await body();
  } catch (error) {
    const line = failureLine(error, usage) ?? (anyError ? (error as Error).message : undefined);
    if (line === undefined) throw error;
    const hint = error instanceof UsageError || isParseArgsError(error) ? ` (ofkit ${name} --help)` : '';
    console.error(`ofkit ${name}: ${line}${hint}`);
    return 2;
  }
}

/**
 * Keys from $OFKIT_KEY and $OFKIT_SECRET, as `id:secret`; undefined when neither is set. A variable
 * set but empty (what CI gives pull requests from forks), or one without the other, is a usage error
 * that names what is wrong: never a silent fall-back to other keys.
 */
export function environmentKey(env: NodeJS.ProcessEnv, howToPass: string): string | undefined {
  const { OFKIT_KEY: id, OFKIT_SECRET: secret } = env;
  if (id === undefined && secret === undefined) return undefined;
  if (id && secret) return `${id}:${secret}`;
  const state = (value: string | undefined) => (value === undefined ? 'unset' : 'empty');
  let problem: string;
  if (!id && !secret)
    problem =
      state(id) === state(secret)
        ? `$OFKIT_KEY and $OFKIT_SECRET are both ${state(id)}`
        : `$OFKIT_KEY is ${state(id)} and $OFKIT_SECRET is ${state(secret)}`;
  else if (!id) problem = `$OFKIT_KEY is ${state(id)} while $OFKIT_SECRET is set`;
  else problem = `$OFKIT_SECRET is ${state(secret)} while $OFKIT_KEY is set`;
  throw new UsageError(`${problem}: ${howToPass}`);
}

/** True when argv asks for help (`-h` or `--help` anywhere before `--`). */
export function wantsHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((arg) => arg === '-h' || arg === '--help');
}
