/**
 * One exchange between a client and an implementation of the API, as the proxy saw it or a HAR file
 * holds it: the kernel every part of the bridge reads (the checks, the HAR writer, the replay).
 */
import { contentCodingsOf, decodeBody, MAX_RECORDED_BYTES } from '../../../openapi/http/content-coding.js';
import { attachedFact } from './attached-facts.js';
import { joinedPieces, keepBodyPieces } from './body-pieces.js';
import { splitJsonBytes } from './json-split.js';

/** A header as it travelled (names lower-case; a repeated header is repeated). */
export type HeaderList = readonly (readonly [name: string, value: string])[];

export interface ExchangeRequest {
  method: string;
  /** The absolute URL the request went to (the implementation's, for a recording through the proxy). */
  url: string;
  headers: HeaderList;
  /** The body as text (undefined: none, or not kept). */
  body?: string;
  /** Set when a body was sent but is not in the recording (too large, or left out by the tool). */
  bodyOmitted?: boolean;
  /** A body left out because it could not be read for credentials (neither JSON nor a form): its size and sha256. */
  bodyDigest?: BodyDigest;
}

/** What a recording keeps of a body it cannot read for credentials (CLIENT-NO-SECRETS). */
export interface BodyDigest {
  length: number;
  sha256: string;
}

export interface ExchangeResponse {
  status: number;
  statusText: string;
  headers: HeaderList;
  body?: string;
  bodyOmitted?: boolean;
  bodyDigest?: BodyDigest;
}

/** The proxy's own failure to reach the implementation (the client got the proxy's error array). */
export interface UpstreamFailure {
  code: string;
  message: string;
}

export interface Exchange {
  /** When the request started (ISO 8601, the machine's clock). */
  startedAt: string;
  /** Milliseconds from the request's start to the answer's end. */
  durationMs: number;
  request: ExchangeRequest;
  response: ExchangeResponse;
  /** Present when the answer is the proxy's, not the implementation's. */
  upstreamFailure?: UpstreamFailure;
}

/**
 * An exchange as the proxy hands it on: both bodies still the chunks of bytes they came in, joined and
 * decoded where they are read (the recording's thread), never on the thread that forwards the traffic.
 */
export interface ProxiedExchange extends Omit<Exchange, 'request' | 'response'> {
  request: Omit<ExchangeRequest, 'body'> & { bodyChunks?: readonly Uint8Array[] };
  response: Omit<ExchangeResponse, 'body'> & { bodyChunks?: readonly Uint8Array[] };
}

/** A JSON body this long (bytes) is read in pieces (json-split.ts). */
const SPLIT_FROM = 65_536;

/**
 * The bytes of a long body joined in one buffer this thread keeps (grown as needed): the pieces are
 * copies, so it is free again once they are made, and a new one each time would be memory mapped and
 * faulted in again for every body.
 */
let joining = Buffer.alloc(0);

/** A long JSON body without content codings, in pieces (json-split.ts), when it cuts into pieces. */
function longJsonPieces(chunks: readonly Uint8Array[], headers: HeaderList): string[] | undefined {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  if (length < SPLIT_FROM || contentCodingsOf(headers).length > 0 || !isJsonMedia(mediaTypeOf(headers)))
    return undefined;
  if (joining.length < length) joining = Buffer.allocUnsafeSlow(Math.max(length, 2 * joining.length));
  let at = 0;
  for (const chunk of chunks) {
    joining.set(chunk, at);
    at += chunk.byteLength;
  }
  return splitJsonBytes(joining.subarray(0, length));
}

/**
 * A message with its body as text (UTF-8, as the API sends JSON), undone from its content codings;
 * a body that cannot be undone is left out (content-coding.ts says why it is never kept as bytes).
 */
function decodedMessage<M extends { headers: HeaderList; bodyChunks?: readonly Uint8Array[] }>(
  message: M,
  maxBytes: number,
): Omit<M, 'bodyChunks'> & { body?: string; bodyOmitted?: boolean } {
  const { bodyChunks, ...rest } = message;
  if (bodyChunks === undefined) return rest;
  const pieces = longJsonPieces(bodyChunks, message.headers);
  if (pieces !== undefined) {
    const joined = { ...rest, body: joinedPieces(pieces) };
    keepBodyPieces(joined, pieces);
    return joined;
  }
  const decoded = decodeBody(bodyChunks, message.headers, maxBytes);
  if ('omitted' in decoded) return { ...rest, bodyOmitted: true };
  return decoded.text === '' ? rest : { ...rest, body: decoded.text };
}

/** The exchange with both bodies as text (`maxBytes`: what a coded body may inflate to). */
export function decodedExchange(proxied: ProxiedExchange, maxBytes = MAX_RECORDED_BYTES): Exchange {
  return {
    ...proxied,
    request: decodedMessage(proxied.request, maxBytes),
    response: decodedMessage(proxied.response, maxBytes),
  };
}

/** Node's raw header array (name, value, name, value...) as a list, names in lower case, in order. */
export function headerListOf(raw: readonly string[]): HeaderList {
  const list: [string, string][] = [];
  for (let index = 0; index + 1 < raw.length; index += 2)
    list.push([raw[index]!.toLowerCase(), raw[index + 1]!]);
  return list;
}

/** The first value of a header (names compared without case). */
export function headerOf(headers: HeaderList, name: string): string | undefined {
  const wanted = name.toLowerCase();
  return headers.find(([key]) => key.toLowerCase() === wanted)?.[1];
}

/** The media type of a content-type header, lower-case, without parameters. */
export function mediaTypeOf(headers: HeaderList): string {
  return (headerOf(headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/** `application/json` or any `+json` type. */
export const isJsonMedia = (media: string) => media === 'application/json' || media.endsWith('+json');

/** Bodies already parsed (the redactor parses them; the checks need not parse them again). */
const parsedBodies = attachedFact<unknown>('parsed body');

/** Remembers `value` as the parsed body of `message` (which must not change afterwards). */
export function keepParsedBody(message: ExchangeRequest | ExchangeResponse, value: unknown): void {
  parsedBodies.set(message, value);
}

/**
 * No body, or one of white space only. A body already parsed as JSON is neither, and its text is not
 * read again (a long one is kept in pieces: body-pieces.ts).
 */
export function isBlankBody(message: ExchangeRequest | ExchangeResponse): boolean {
  if (message.body === undefined) return true;
  if (parsedBodies.get(message) !== undefined) return false;
  return message.body.trim() === '';
}

/**
 * JSON nested deeper than this is not walked: no schema of the API comes near it, and the walks that
 * redact and check a body recurse (`[[[[...]]]]` a hundred thousand deep would overflow the stack).
 */
export const MAX_JSON_DEPTH = 256;

/** Whether `value` nests arrays and objects more than `levels` deep (stops as soon as it does). */
function nestsDeeperThan(value: unknown, levels: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (levels === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (nestsDeeperThan(item, levels - 1)) return true;
    return false;
  }
  for (const key in value)
    if (nestsDeeperThan((value as Record<string, unknown>)[key], levels - 1)) return true;
  return false;
}

/** The parsed JSON body, or undefined when there is none, it is not JSON or it nests too deep. */
export function jsonBodyOf(message: ExchangeRequest | ExchangeResponse): unknown {
  if (parsedBodies.has(message)) return parsedBodies.get(message);
  if (message.body === undefined || message.body.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(message.body);
  } catch {
    value = undefined;
  }
  // Read here (a body the redaction did not parse); the redaction walk refuses a deep one itself.
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) value = undefined;
  parsedBodies.set(message, value);
  return value;
}
