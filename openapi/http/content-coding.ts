/**
 * A body's bytes as the text they hold: undone from the content codings its message names
 * (`Content-Encoding`, RFC 9110 8.4: gzip, deflate, br, applied in the order listed). A server may
 * compress an answer whoever asked (without `Accept-Encoding` any coding is acceptable, and some send
 * one even when asked for identity), and a client may compress what it sends: the conformance suite
 * and the recording proxy read what such a body says. One that cannot be undone (a coding not listed
 * here, corrupt data, or one that inflates past the cap) comes back as the reason: the recording
 * leaves it out (bytes never read cannot be redacted), the suite reports it.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/** A message's headers, name and value, a repeated header repeated (the bridge's HeaderList has this shape). */
type Headers = readonly (readonly [name: string, value: string])[];

/** What a coded body may inflate to, by default (and what a recording keeps of one body at most). */
export const MAX_RECORDED_BYTES = 16 * 1_048_576;

export type DecodedBody = { text: string } | { omitted: string };

type Decoder = (bytes: Buffer, maxOutputLength: number) => Buffer;

/** `deflate` is the zlib format (RFC 9110 8.4.1.2); some servers send the raw format under that name. */
function inflateEither(bytes: Buffer, maxOutputLength: number): Buffer {
  try {
    return inflateSync(bytes, { maxOutputLength });
  } catch (error) {
    if (error instanceof RangeError) throw error;
    return inflateRawSync(bytes, { maxOutputLength });
  }
}

const DECODERS: ReadonlyMap<string, Decoder> = new Map<string, Decoder>([
  ['gzip', (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength })],
  ['x-gzip', (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength })],
  ['deflate', inflateEither],
  ['br', (bytes, maxOutputLength) => brotliDecompressSync(bytes, { maxOutputLength })],
]);

/** The codings a message names, in the order they were applied (`identity` is none). */
export function contentCodingsOf(headers: Headers): string[] {
  return headers
    .filter(([name]) => name.toLowerCase() === 'content-encoding')
    .flatMap(([, value]) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/** The text of a body whose bytes came as `chunks`, under the codings its headers name. */
export function decodeBody(
  chunks: readonly Uint8Array[],
  headers: Headers,
  maxBytes: number = MAX_RECORDED_BYTES,
): DecodedBody {
  let bytes: Buffer = Buffer.concat(chunks);
  const codings = contentCodingsOf(headers);
  if (codings.length === 0 || bytes.length === 0) return { text: bytes.toString('utf8') };
  // Undone last first: the last coding listed is the outermost.
  for (const coding of [...codings].reverse()) {
    const decoder = DECODERS.get(coding);
    if (decoder === undefined) return { omitted: `content coding ${coding} is not one ofkit reads` };
    try {
      bytes = decoder(bytes, maxBytes);
    } catch (error) {
      return {
        omitted:
          error instanceof RangeError
            ? `its ${coding} content inflates past ${maxBytes} bytes`
            : `its ${coding} content is corrupt (${error instanceof Error ? error.message : String(error)})`,
      };
    }
  }
  return { text: bytes.toString('utf8') };
}
