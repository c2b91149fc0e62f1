/**
 * Appends entries to a HAR 1.2 file that is a whole, valid HAR after every append: each entry is
 * written over the closing `]}}` and the closing written again after it, so a recording stopped by a
 * crash or a kill still opens in a browser's or Postman's importer.
 *
 * The writes are synchronous, on the calling thread: the recording's worker thread, which gives way
 * to the thread that forwards the traffic (thread-priority.ts). An asynchronous write would run on
 * libuv's thread pool, whose threads the whole process shares at normal priority: copying a page of
 * records into the file there competed with the forwarding thread (about 0.9 ms more p99 added at 200
 * pages of 100 records a second, measured with `npm run bench`'s proxy row).
 *
 * An entry is encoded into one buffer the writer keeps, and a long body is escaped a slice at a time
 * (json-escape.ts): serializing the entry whole made a string as long as the body and then a new
 * buffer of its bytes, both past V8's 128 KiB limit for its ordinary heap pages for a page of 100
 * records, so each came from memory mapped for it alone and given back after (about 70 page faults
 * per entry, 1.3 ms of the worker's time per page on the machine the bench runs on).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, writeSync, writevSync } from 'node:fs';
import { bodyPiecesOf } from '../exchange/body-pieces.js';
import type { HarEntry, HarLog } from './har-types.js';
import { createJsonEscaper, ESCAPE_SLICE } from './json-escape.js';

const CLOSING = Buffer.from('\n]}}\n');
/** Body texts longer than this are escaped in slices of this many UTF-16 units (each JSON < 128 KiB). */
const SLICE = ESCAPE_SLICE;

/**
 * Encodes entries into one buffer that grows as needed and is kept: the entry's JSON with each long
 * body text (`postData.text`, `content.text`) left as a marker no traffic can hold (a random id), then
 * the pieces and the escaped slices of the bodies written in their place.
 */
function createEntryEncoder() {
  const marker = `ofkit-body-${randomUUID()}`;
  const quotedMarker = JSON.stringify(marker);
  const escaper = createJsonEscaper();
  let buffer = Buffer.allocUnsafeSlow(1 << 16);
  let length = 0;
  const makeRoom = (bytes: number) => {
    if (length + bytes <= buffer.length) return;
    const grown = Buffer.allocUnsafeSlow(Math.max(length + bytes, buffer.length * 2));
    buffer.copy(grown, 0, 0, length);
    buffer = grown;
  };
  const write = (piece: string) => {
    // A UTF-16 unit is at most 3 bytes of UTF-8.
    makeRoom(piece.length * 3);
    length += buffer.write(piece, length, 'utf8');
  };
  /** `text` as the inside of a JSON string, SLICE units at a time, never splitting a surrogate pair. */
  const writeEscaped = (text: string) => {
    for (let start = 0; start < text.length; ) {
      let end = Math.min(start + SLICE, text.length);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
      const slice = text.slice(start, end);
      const escaped = escaper?.escape(slice);
      if (escaped === undefined) write(JSON.stringify(slice).slice(1, -1));
      else {
        makeRoom(escaped.length);
        buffer.set(escaped, length);
        length += escaped.length;
      }
      start = end;
    }
  };
  return (separator: string, entry: HarEntry): Buffer => {
    // Each long body as the pieces it was written in, when it was (exchange/body-pieces.ts).
    const bodies: (readonly string[])[] = [];
    const json = JSON.stringify(entry, function (this: object, key: string, value: unknown) {
      if (key !== 'text' || typeof value !== 'string' || value.length <= SLICE) return value;
      bodies.push(bodyPiecesOf(this) ?? [value]);
      return marker;
    });
    length = 0;
    write(separator);
    let at = 0;
    for (const pieces of bodies) {
      const found = json.indexOf(quotedMarker, at);
      write(json.slice(at, found + 1));
      for (const piece of pieces) writeEscaped(piece);
      at = found + quotedMarker.length - 1;
    }
    write(json.slice(at));
    return buffer.subarray(0, length);
  };
}

export interface HarWriter {
  readonly path: string;
  /** Appends one entry (written before it returns); rejects once a write has failed. */
  append(entry: HarEntry): Promise<void>;
  /** Entries written so far. */
  count(): number;
  /** Closes the file. */
  close(): Promise<void>;
}

/** Creates (or truncates) `path` and writes an empty log with `head`'s creator and facts. */
export async function openHarWriter(path: string, head: Omit<HarLog, 'entries'>): Promise<HarWriter> {
  const file = openSync(path, 'w');
  const opening = Buffer.from(`${JSON.stringify({ log: { ...head, entries: [] } }).slice(0, -3)}`);
  try {
    writeSync(file, Buffer.concat([opening, CLOSING]), 0, opening.length + CLOSING.length, 0);
  } catch (error) {
    closeSync(file);
    throw error;
  }
  let position = opening.length;
  let written = 0;
  const encode = createEntryEncoder();
  let failure: Error | undefined;
  let closed = false;
  return {
    path,
    append(entry) {
      if (failure) return Promise.reject(failure);
      const text = encode(written === 0 ? '\n' : ',\n', entry);
      try {
        // Both pieces in one call, without copying the entry into a joined buffer.
        const bytesWritten = writevSync(file, [text, CLOSING], position);
        if (bytesWritten !== text.length + CLOSING.length)
          throw new Error('the HAR file took part of an entry');
      } catch (error) {
        failure = error as Error;
        return Promise.reject(failure);
      }
      position += text.length;
      written += 1;
      return Promise.resolve();
    },
    count: () => written,
    async close() {
      if (!closed) closeSync(file);
      closed = true;
      if (failure) throw failure;
    },
  };
}
