/**
 * Buffers the adapter lends to a serializer and takes back once the answer holding one was handed to
 * the operating system. A page of 100 transactions is 134 KB; a new buffer for each answer is memory
 * outside the JavaScript heap that the garbage collector has to account for, and under steady load
 * that could set off full collections every few hundred milliseconds (pauses of 5-25 ms in the answers).
 * A lent buffer comes back only once and only after its answer went out; what the pool keeps is bounded.
 */
import type { BufferLender } from '../core/http-types.js';

export interface ReusedBuffers extends BufferLender {
  /** Takes back a buffer `borrow` lent, once its bytes were handed on; any other buffer is ignored. */
  giveBack(lent: Buffer): void;
  /** Whether `buffer` is one `borrow` lent and that was not given back yet. */
  lent(buffer: Buffer): boolean;
  /** Bytes held for reuse (for the bounds' tests). */
  retainedBytes(): number;
}

export interface ReusedBufferLimits {
  /** Bytes kept for reuse at most; a buffer given back beyond them is left to the garbage collector. */
  retainedBytes: number;
  /** Larger requests get a buffer of their own that is never kept. */
  bufferBytes: number;
}

const DEFAULT_LIMITS: ReusedBufferLimits = { retainedBytes: 8 * 1_048_576, bufferBytes: 1_048_576 };
/** Capacities are powers of two from 16 KiB, so a buffer fits the next answer of about the same size. */
const SMALLEST = 16 * 1024;

const capacityFor = (size: number) => Math.max(SMALLEST, 2 ** Math.ceil(Math.log2(size)));

export function createReusedBuffers(limits: ReusedBufferLimits = DEFAULT_LIMITS): ReusedBuffers {
  const free: Buffer[] = [];
  /** The memory of the buffers out on loan: given back at most once each. */
  const lent = new WeakSet<ArrayBufferLike>();
  const retained = () => free.reduce((bytes, buffer) => bytes + buffer.length, 0);
  return {
    borrow(size) {
      if (size > limits.bufferBytes) return Buffer.allocUnsafeSlow(size);
      const index = free.findIndex((buffer) => buffer.length >= size);
      const whole = index >= 0 ? free.splice(index, 1)[0]! : Buffer.allocUnsafeSlow(capacityFor(size));
      lent.add(whole.buffer);
      return whole.subarray(0, size);
    },
    giveBack(buffer) {
      if (!lent.has(buffer.buffer)) return;
      lent.delete(buffer.buffer);
      const whole = Buffer.from(buffer.buffer);
      if (retained() + whole.length > limits.retainedBytes) return;
      free.push(whole);
    },
    lent: (buffer) => lent.has(buffer.buffer),
    retainedBytes: retained,
  };
}
