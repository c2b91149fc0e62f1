/**
 * Reads HAR files from any source (ofkit's recordings, a browser's export, Playwright's `recordHar`,
 * mitmproxy, Charles, Postman) into exchanges. A file that is not a HAR is a clear one-line error; an
 * entry without an answer (a browser's blocked or cancelled request, status 0) is counted, not checked.
 */
import { readFile } from 'node:fs/promises';
import type { Exchange } from '../exchange/exchange.js';
import { fromHarEntry } from './har-entry.js';
import type { Har, HarEntry } from './har-types.js';

/** A file that cannot be read as HAR: the message names the file and the reason. */
export class HarFileError extends Error {
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

function entryProblem(entry: HarEntry, index: number): string | undefined {
  if (typeof entry?.request?.method !== 'string' || typeof entry.request.url !== 'string')
    return `entry ${index} has no request method and URL`;
  if (typeof entry.response?.status !== 'number') return `entry ${index} has no response status`;
  if (!URL.canParse(entry.request.url)) return `entry ${index} has an invalid URL ${entry.request.url}`;
  return undefined;
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
