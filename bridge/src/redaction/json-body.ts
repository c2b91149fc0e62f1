/**
 * A JSON body redacted beside its schema (redact-json.ts), then searched for every value redacted so
 * far (replacements.ts). A long body is parsed from the pieces it was read in (exchange/json-split.ts),
 * and written and searched a piece at a time (json-pieces.ts): its text is never one flat string in
 * the recording's worker (exchange/body-pieces.ts says why).
 */
import type { JsonValue } from '../../../openapi/document/json.js';
import { bodyDigest } from '../../../openapi/security/masked-values.js';
import type { BridgeDocument } from '../document/bridge-document.js';
import { applicableSchemas } from '../document/schema-walk.js';
import { joinedPieces } from '../exchange/body-pieces.js';
import type { BodyDigest } from '../exchange/exchange.js';
import { parseSplitJson } from '../exchange/json-split.js';
import { stringifiedPieces } from './json-pieces.js';
import { type JsonRedaction, redactJson, TooDeepError } from './redact-json.js';
import type { Replacements } from './replacements.js';

/**
 * A redacted JSON body this long (in UTF-16 units) is written in pieces: as one flat string its text
 * would pass V8's 128 KiB limit for ordinary heap pages.
 */
const PIECES_FROM = 32_768;

/** A body as the recording keeps it: its text, or why not, and what was read of it on the way. */
export interface RedactedBody {
  text: string | undefined;
  /** The parsed JSON the text holds (the checks need not parse it again). */
  parsed?: unknown;
  /** The pieces the text was written in. */
  pieces?: readonly string[];
  omitted?: true;
  digest?: BodyDigest;
}

export interface JsonBodyRedaction {
  document: BridgeDocument;
  json: JsonRedaction;
  replacements: Replacements;
}

/** The JSON a body holds, with the pieces it was read from; undefined when it is not JSON. */
function parsedBody(
  text: string,
  split: readonly string[] | undefined,
): { value: unknown; pieces: readonly string[] | undefined } | undefined {
  // Pieces whose cuts are not all between a list's items say nothing: the text is read whole.
  const value = split === undefined ? undefined : parseSplitJson(split);
  if (value !== undefined) return { value, pieces: split };
  try {
    return { value: JSON.parse(text), pieces: undefined };
  } catch {
    return undefined;
  }
}

const TOO_DEEP = Symbol('too deep');

/** `parsed` redacted beside its schema (redact-json.ts), or TOO_DEEP when it nests too deep to walk. */
function walked(
  { document, json }: JsonBodyRedaction,
  parsed: unknown,
  schema: JsonValue | undefined,
): unknown {
  const schemas = schema === undefined ? undefined : applicableSchemas(document, schema, parsed);
  try {
    return redactJson(json, parsed, schemas);
  } catch (error) {
    if (error instanceof TooDeepError) return TOO_DEEP;
    throw error;
  }
}

/**
 * The body `text` (its pieces `split`, when it was read in pieces) redacted as JSON; one that is not
 * JSON cannot be read for credentials: its length and sha256 only are kept.
 */
export function redactedJsonBody(
  context: JsonBodyRedaction,
  text: string,
  split: readonly string[] | undefined,
  schema: JsonValue | undefined,
): RedactedBody {
  const body = parsedBody(text, split);
  if (body === undefined) return { text: undefined, omitted: true, digest: bodyDigest(text) };
  return redactedValue(context, text, body.value, body.pieces, schema);
}

/** What `redactedJsonBody` learns of a body (its credentials and personal values), without writing it again. */
export function learnJsonBody(
  context: JsonBodyRedaction,
  text: string,
  split: readonly string[] | undefined,
  schema: JsonValue | undefined,
): void {
  const body = parsedBody(text, split);
  if (body !== undefined) walked(context, body.value, schema);
}

function redactedValue(
  context: JsonBodyRedaction,
  text: string,
  parsed: unknown,
  split: readonly string[] | undefined,
  schema: JsonValue | undefined,
): RedactedBody {
  const { replacements } = context;
  const redacted = walked(context, parsed, schema);
  // Too deep to walk for credentials and personal members: left out of the recording, not kept as sent.
  if (redacted === TOO_DEEP) return { text: undefined, omitted: true };
  const pieces =
    redacted === parsed ? split : text.length >= PIECES_FROM ? stringifiedPieces(redacted) : undefined;
  if (pieces !== undefined) {
    const final = replacements.applyPieces(pieces);
    if (final !== pieces) return { text: joinedPieces(final), pieces: final };
    return { text: redacted === parsed ? text : joinedPieces(pieces), parsed: redacted, pieces };
  }
  const serialized = redacted === parsed ? text : JSON.stringify(redacted);
  const final = replacements.apply(serialized);
  return final === serialized ? { text: final, parsed: redacted } : { text: final };
}
