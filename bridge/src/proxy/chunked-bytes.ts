/**
 * A body as the chunks it arrived in, read as one run of bytes without joining them: the proxy's
 * thread forwards a page of records without copying it into one buffer (each copy is memory the
 * garbage collector has to reclaim, and under load that shows as pauses in the answers).
 */
export class ChunkedBytes {
  readonly length: number;
  /** Where each chunk starts in the whole. */
  private readonly starts: number[] = [];

  constructor(readonly chunks: readonly Buffer[]) {
    let length = 0;
    for (const chunk of chunks) {
      this.starts.push(length);
      length += chunk.length;
    }
    this.length = length;
  }

  /** The chunk holding byte `index` (the last chunk for the end). */
  private chunkAt(index: number): number {
    let chunk = 0;
    while (chunk + 1 < this.chunks.length && this.starts[chunk + 1]! <= index) chunk++;
    return chunk;
  }

  /** The byte at `index`, undefined past the end. */
  byteAt(index: number): number | undefined {
    if (index < 0 || index >= this.length) return undefined;
    const chunk = this.chunkAt(index);
    return this.chunks[chunk]![index - this.starts[chunk]!];
  }

  /** Whether the bytes at `index` are `needle`. */
  startsWith(index: number, needle: Buffer): boolean {
    for (let offset = 0; offset < needle.length; offset++)
      if (this.byteAt(index + offset) !== needle[offset]) return false;
    return true;
  }

  /** Where `needle` first starts at or after `from`, also across a chunk boundary; -1 if nowhere. */
  indexOf(needle: Buffer, from: number): number {
    for (let chunk = this.chunkAt(from); chunk < this.chunks.length; chunk++) {
      const bytes = this.chunks[chunk]!;
      const base = this.starts[chunk]!;
      const local = Math.max(0, from - base);
      const found = bytes.indexOf(needle, local);
      if (found >= 0) return base + found;
      // A match that begins in this chunk's last bytes and ends in the next ones.
      for (let start = Math.max(local, bytes.length - needle.length + 1); start < bytes.length; start++)
        if (this.startsWith(base + start, needle)) return base + start;
    }
    return -1;
  }

  /** The bytes [from, to) as views of the chunks (no copy). */
  slices(from: number, to: number): Buffer[] {
    const out: Buffer[] = [];
    for (let chunk = this.chunkAt(from); chunk < this.chunks.length && this.starts[chunk]! < to; chunk++) {
      const base = this.starts[chunk]!;
      const bytes = this.chunks[chunk]!;
      const start = Math.max(0, from - base);
      const end = Math.min(bytes.length, to - base);
      if (end > start) out.push(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end));
    }
    return out;
  }
}
