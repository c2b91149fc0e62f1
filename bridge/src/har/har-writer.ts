/**
 * Appends entries to a HAR 1.2 file that is a whole, valid HAR after every append: each entry is
 * written over the closing `]}}` and the closing written again after it, so a recording stopped by a
 * crash or a kill still opens in a browser's or Postman's importer.
 */
import { type FileHandle, open } from 'node:fs/promises';
import type { HarEntry, HarLog } from './har-types.js';

const CLOSING = Buffer.from('\n]}}\n');

export interface HarWriter {
  readonly path: string;
  /** Appends one entry; appends run in call order. */
  append(entry: HarEntry): Promise<void>;
  /** Entries written so far. */
  count(): number;
  /** Waits for the appends in flight, then closes the file. */
  close(): Promise<void>;
}

/** Creates (or truncates) `path` and writes an empty log with `head`'s creator and facts. */
export async function openHarWriter(path: string, head: Omit<HarLog, 'entries'>): Promise<HarWriter> {
  const file: FileHandle = await open(path, 'w');
  const opening = Buffer.from(`${JSON.stringify({ log: { ...head, entries: [] } }).slice(0, -3)}`);
  await file.write(Buffer.concat([opening, CLOSING]), 0, opening.length + CLOSING.length, 0);
  let position = opening.length;
  let written = 0;
  let queue: Promise<void> = Promise.resolve();
  let failure: Error | undefined;
  return {
    path,
    append(entry) {
      const text = Buffer.from(`${written === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`);
      written += 1;
      queue = queue.then(async () => {
        if (failure) return;
        try {
          // Both pieces in one call, without copying the entry into a joined buffer.
          const { bytesWritten } = await file.writev([text, CLOSING], position);
          if (bytesWritten !== text.length + CLOSING.length)
            throw new Error('the HAR file took part of an entry');
          position += text.length;
        } catch (error) {
          failure = error as Error;
        }
      });
      return queue.then(() => {
        if (failure) throw failure;
      });
    },
    count: () => written,
    async close() {
      await queue;
      await file.close();
      if (failure) throw failure;
    },
  };
}
