/**
 * The answers DATA-DETAIL keeps, as UTF-8 bytes in one buffer allocated once and written round and
 * round: an answer stays until later ones write over it. Kept as objects (or as strings), each page's
 * records outlived V8's young collections and were copied, promoted and swept again: garbage collection
 * was the largest part of what keeping them cost a recording's worker. Bytes outside the heap are never
 * copied by a collection, and a buffer allocated once does not make V8 collect for the memory it holds.
 * Whether an answer is still there depends on the bytes written since, never on a collection.
 */
import { piecesByteLength } from '../../exchange/body-pieces.js';

/** Where an answer's bytes were written, in which lap round the buffer. */
export interface ArenaSlot {
  readonly start: number;
  readonly length: number;
  readonly lap: number;
}

export class AnswerArena {
  private bytes: Buffer | undefined;
  private at = 0;
  private lap = 0;

  /** `capacity`: bytes of the buffer (allocated with the first answer kept). */
  constructor(readonly capacity: number) {}

  /** Writes a text given as its pieces; undefined when it is longer than the whole buffer. */
  keep(pieces: readonly string[]): ArenaSlot | undefined {
    const length = piecesByteLength(pieces);
    if (length > this.capacity) return undefined;
    this.bytes ??= Buffer.allocUnsafeSlow(this.capacity);
    if (this.at + length > this.capacity) {
      this.at = 0;
      this.lap += 1;
    }
    const slot = { start: this.at, length, lap: this.lap };
    for (const piece of pieces) this.at += this.bytes.write(piece, this.at, 'utf8');
    return slot;
  }

  /**
   * The text of `slot`, or undefined once later answers wrote over it. An answer of the previous lap
   * is there while this lap's writes have not reached it; an older one is taken as gone.
   */
  text(slot: ArenaSlot): string | undefined {
    const intact = slot.lap === this.lap || (slot.lap === this.lap - 1 && slot.start >= this.at);
    if (!intact || this.bytes === undefined) return undefined;
    return this.bytes.toString('utf8', slot.start, slot.start + slot.length);
  }
}
