/**
 * Reads a large JSON body (a snapshot import) as it arrives, parsing it chunk by chunk and yielding to
 * other requests every MiB: `JSON.parse` of one string would block every tenant for seconds, and a
 * string cannot hold more than ~512 MiB.
 */
import type { IncomingMessage } from 'node:http';
import { JSONParser } from '@streamparser/json';
import type { Result } from '../core/result.js';

/** How much is parsed between two yields to the event loop. */
const SLICE_BYTES = 1_048_576;

export interface StreamedJson {
  /** The body exceeded the limit (the rest was read and dropped, so the client sees our 413). */
  tooLarge: boolean;
  /** Undefined for an empty body; else the value or why it is not JSON. */
  parsed?: Result<unknown, string>;
}

const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

const hasContent = (chunk: Buffer) =>
  chunk.some((byte) => byte !== 0x20 && byte !== 0x0a && byte !== 0x0d && byte !== 0x09);

/**
 * The parser's reason without the value it quotes (a snapshot holds link passwords): where it stopped,
 * when it says so.
 */
function withoutQuotedValue(message: string): string {
  const position = /absolute position "(\d+)"/.exec(message)?.[1];
  return position === undefined ? 'Unexpected token.' : `Unexpected character at position ${position}.`;
}

export async function readStreamedJson(request: IncomingMessage, limit: number): Promise<StreamedJson> {
  const parser = new JSONParser({ paths: ['$'] });
  let value: unknown;
  let error: string | undefined;
  let size = 0;
  let sinceYield = 0;
  let content = false;
  parser.onValue = (info) => {
    value = info.value;
  };
  parser.onError = (cause) => {
    error ??= withoutQuotedValue(cause.message);
  };
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit || error !== undefined) continue;
    content ||= hasContent(chunk);
    if (parser.isEnded) {
      if (hasContent(chunk)) error = 'Unexpected data after the JSON value.';
      continue;
    }
    parser.write(chunk);
    sinceYield += chunk.length;
    if (sinceYield >= SLICE_BYTES) {
      sinceYield = 0;
      await yieldToOthers();
    }
  }
  if (size > limit) return { tooLarge: true };
  if (!content) return { tooLarge: false };
  if (error === undefined && !parser.isEnded) parser.end();
  if (error !== undefined) return { tooLarge: false, parsed: { ok: false, error } };
  return { tooLarge: false, parsed: { ok: true, value } };
}
