/**
 * A JSON body redacted beside its schema (redact-json.ts), then searched for every value redacted so
 * far (replacements.ts). A long body is parsed from the pieces it was read in (exchange/json-split.ts)
 * and searched a piece at a time: its text is never one flat string in the recording's worker
 * (exchange/body-pieces.ts says why). The text kept is the one that came, searched, whenever that
 * gives what the redacted value says (the walk replaced whole strings only, which the search finds
 * again, in a text whose escapes are the ones JSON.stringify writes): writing a page of records again
 * costs more than the rest of its redaction. Otherwise the redacted value is written again (a long one
 * in pieces, json-pieces.ts).
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
import { escapedAsJsonWrites, writtenAsItIs } from './tokens.js';

/**
 * Whether every escape in `pieces` is one JSON.stringify writes (tokens.ts): the search finds each value
 * there as JSON writes it; a server may write it otherwise (`ã` as `\u00e3`), and then the redacted
 * value is written again.
 */
function escapedAsJsonWritesAll(pieces: readonly string[]): boolean {
  for (const piece of pieces) if (!escapedAsJsonWrites(piece)) return false;
  return true;
}

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

/** A body redacted beside its schema, with what the walk replaced in it. */
interface Walked {
  value: unknown;
  /** How many scalars it replaced. */
  count: number;
  /**
   * Each was a string the search puts the same pseudonym for wherever it is a whole JSON string written
   * without escapes (`Replacements.replacesQuoted`): the text as it came, searched, then says what the
   * value says.
   */
  quoted: boolean;
}

/** `parsed` redacted beside its schema (redact-json.ts), or TOO_DEEP when it nests too deep to walk. */
function walked(
  { document, json, replacements }: JsonBodyRedaction,
  parsed: unknown,
  schema: JsonValue | undefined,
): Walked | typeof TOO_DEEP {
  const schemas = schema === undefined ? undefined : applicableSchemas(document, schema, parsed);
  const walk: Walked = { value: parsed, count: 0, quoted: true };
  const counting: JsonRedaction = {
    document: json.document,
    keepPersonal: json.keepPersonal,
    pseudonym(value, kind, nodes) {
      const chosen = json.pseudonym(value, kind, nodes);
      if (chosen === value) return chosen;
      walk.count += 1;
      if (
        walk.quoted &&
        !(
          typeof value === 'string' &&
          typeof chosen === 'string' &&
          writtenAsItIs(chosen) &&
          replacements.replacesQuoted(value, chosen)
        )
      )
        walk.quoted = false;
      return chosen;
    },
  };
  try {
    walk.value = redactJson(counting, parsed, schemas);
    return walk;
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
  const walk = walked(context, parsed, schema);
  // Too deep to walk for credentials and personal members: left out of the recording, not kept as sent.
  if (walk === TOO_DEEP) return { text: undefined, omitted: true };
  const redacted = walk.value;
  // The text as it came, searched: the walk's pseudonyms land where the walk put them (see Walked.quoted),
  // and every other occurrence of a value redacted so far is replaced too. A long text is searched by
  // its pieces. When the search replaced only the walk's places, the text holds the redacted value.
  const asItCame =
    walk.count === 0 ||
    ((split !== undefined || text.length < PIECES_FROM) &&
      walk.quoted &&
      escapedAsJsonWritesAll(split ?? [text]));
  if (asItCame && split !== undefined) {
    const final = replacements.replaceJsonPieces(split, 'objects');
    const kept = final.text === split ? text : joinedPieces(final.text);
    return final.count === walk.count
      ? { text: kept, parsed: redacted, pieces: final.text }
      : { text: kept, pieces: final.text };
  }
  if (asItCame) {
    const final = replacements.replaceJson(text);
    return final.count === walk.count ? { text: final.text, parsed: redacted } : { text: final.text };
  }
  // Written again from the redacted value, then searched: a long one in pieces (json-pieces.ts).
  const pieces = text.length >= PIECES_FROM ? stringifiedPieces(redacted) : undefined;
  if (pieces !== undefined) {
    const final = replacements.replaceJsonPieces(pieces, 'items');
    if (final.text !== pieces) return { text: joinedPieces(final.text), pieces: final.text };
    return { text: joinedPieces(pieces), parsed: redacted, pieces };
  }
  const serialized = JSON.stringify(redacted);
  const final = replacements.replaceJson(serialized);
  return final.count === 0 ? { text: final.text, parsed: redacted } : { text: final.text };
}
