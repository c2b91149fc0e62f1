/**
 * Reads HAR files from any source (ofkit's recordings, a browser's export, Playwright's `recordHar`,
 * mitmproxy, Charles, Postman) into exchanges. A file that is not a HAR is a clear one-line error; an
 * entry without an answer (a browser's blocked or cancelled request, status 0) is counted, not checked.
 */
import { readFile } from 'node:fs/promises';
import { ConfigError } from '../../../openapi/config/config-error.js';
import type { Exchange } from '../exchange/exchange.js';
import { fromHarEntry } from './har-entry.js';
import type { Har, HarEntry } from './har-types.js';

/** A file that cannot be read as HAR: the message names the file and the reason. */
/** A ConfigError: the command line's one boundary prints it on one line, exit code 2. */
export class HarFileError extends ConfigError {
  override name = 'HarFileError';
}

export interface Recording {
  file: string;
  exchanges: Exchange[];
  /** Entries left out because the request got no answer (status 0). */
  unanswered: number;
  /** The tool that wrote it (`log.creator`). */
  creator: string;
  /** The implementation's base URL, when ofkit recorded it. */
  upstream?: string;
}

function isHar(value: unknown): value is Har {
  const log = (value as { log?: { entries?: unknown } } | null)?.log;
  return typeof log === 'object' && log !== null && Array.isArray(log.entries);
}

/** What is wrong with a list of headers (HAR: an array of `{name, value}` strings), if anything. */
function headersProblem(headers: unknown, where: string): string | undefined {
  if (headers === undefined || headers === null) return undefined;
  if (!Array.isArray(headers)) return `its ${where} headers are not a list`;
  const bad = headers.findIndex(
    (header: { name?: unknown; value?: unknown } | null) =>
      typeof header?.name !== 'string' || !['string', 'number'].includes(typeof header.value),
  );
  return bad < 0 ? undefined : `its ${where} header ${bad} has no name and value`;
}

/** What is wrong with a body's text (a string, when present), if anything. */
function textProblem(holder: { text?: unknown; encoding?: unknown } | null | undefined, where: string) {
  if (holder === undefined || holder === null) return undefined;
  if (holder.text !== undefined && typeof holder.text !== 'string')
    return `its ${where} text is not a string`;
  if (holder.encoding !== undefined && typeof holder.encoding !== 'string')
    return `its ${where} encoding is not a string`;
  return undefined;
}

/** The fields the checks read, each of its HAR type: a file that breaks them is named, never half-read. */
function entryProblem(entry: HarEntry, index: number): string | undefined {
  if (typeof entry?.request?.method !== 'string' || typeof entry.request.url !== 'string')
    return `entry ${index} has no request method and URL`;
  if (typeof entry.response?.status !== 'number') return `entry ${index} has no response status`;
  if (!URL.canParse(entry.request.url)) return `entry ${index} has an invalid URL ${entry.request.url}`;
  // The rules with a time window (the refresh cooldown, the deletion limit) read when each request started.
  if (typeof entry.startedDateTime !== 'string' || Number.isNaN(Date.parse(entry.startedDateTime)))
    return `entry ${index} has no startedDateTime (an ISO 8601 date and time)`;
  const problem =
    headersProblem(entry.request.headers, 'request') ??
    headersProblem(entry.response.headers, 'response') ??
    textProblem(entry.request.postData, 'request body') ??
    textProblem(entry.response.content, 'response content');
  return problem === undefined ? undefined : `entry ${index}: ${problem}`;
}

/** Reads one HAR file. */
export async function readRecording(file: string): Promise<Recording> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new HarFileError(
      `cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new HarFileError(`${file} is not JSON (${(error as Error).message})`);
  }
  if (!isHar(parsed)) throw new HarFileError(`${file} is not a HAR file (no log.entries)`);
  const exchanges: Exchange[] = [];
  let unanswered = 0;
  for (const [index, entry] of parsed.log.entries.entries()) {
    const problem = entryProblem(entry, index);
    if (problem) throw new HarFileError(`${file}: ${problem}`);
    if (entry.response.status === 0) unanswered += 1;
    else exchanges.push(fromHarEntry(entry));
  }
  const { creator, _ofkit: ofkit } = parsed.log;
  return {
    file,
    exchanges,
    unanswered,
    creator: `${creator?.name ?? 'unknown'} ${creator?.version ?? ''}`.trim(),
    ...(typeof ofkit?.upstream === 'string' && { upstream: ofkit.upstream }),
  };
}

/** Reads several files, in order; their exchanges are checked as one session each. */
export function readRecordings(files: readonly string[]): Promise<Recording[]> {
  return Promise.all(files.map(readRecording));
}
