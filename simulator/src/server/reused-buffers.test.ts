import { describe, expect, it } from 'vitest';
import { createReusedBuffers } from './reused-buffers.js';

describe('the adapter lends serializers reused buffers', () => {
  it('lends exactly the size asked, and lends a buffer given back again', () => {
    const buffers = createReusedBuffers();
    const first = buffers.borrow(134_000);
    expect(first.length).toBe(134_000);
    buffers.giveBack(first);
    const second = buffers.borrow(120_000);
    expect(second.length).toBe(120_000);
    expect(second.buffer).toBe(first.buffer);
  });

  it('never lends one buffer twice at once: buffers out on loan are all different, a second give-back is ignored', () => {
    const buffers = createReusedBuffers();
    const out = Array.from({ length: 20 }, () => buffers.borrow(134_000));
    expect(new Set(out.map((buffer) => buffer.buffer)).size).toBe(20);
    const [one] = out;
    buffers.giveBack(one!);
    buffers.giveBack(one!);
    const again = [buffers.borrow(134_000), buffers.borrow(134_000)];
    expect(again.filter((buffer) => buffer.buffer === one!.buffer)).toHaveLength(1);
  });

  it('ignores buffers it did not lend, and keeps no more than its bounds', () => {
    const buffers = createReusedBuffers({ retainedBytes: 300_000, bufferBytes: 200_000 });
    buffers.giveBack(Buffer.alloc(1_000));
    expect(buffers.retainedBytes()).toBe(0);
    const big = buffers.borrow(500_000);
    buffers.giveBack(big);
    expect(buffers.retainedBytes()).toBe(0);
    const lent = [buffers.borrow(134_000), buffers.borrow(134_000), buffers.borrow(134_000)];
    for (const buffer of lent) buffers.giveBack(buffer);
    // Each is 256 KiB (the next power of two): one fits the 300,000 bytes kept.
    expect(buffers.retainedBytes()).toBe(262_144);
  });

  it('tells a buffer it lent and has not taken back from any other (the adapter waits only for those)', () => {
    const buffers = createReusedBuffers();
    const lent = buffers.borrow(1_000);
    expect(buffers.lent(lent)).toBe(true);
    expect(buffers.lent(Buffer.from('{"cached":true}'))).toBe(false);
    buffers.giveBack(lent);
    expect(buffers.lent(lent)).toBe(false);
  });
});
