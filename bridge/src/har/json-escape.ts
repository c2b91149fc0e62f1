/**
 * A body text as the inside of a JSON string, in UTF-8 bytes: what `JSON.stringify(text).slice(1, -1)`
 * encodes to, written by a small WebAssembly loop. A page of 100 transactions holds some 15,000 quotes,
 * each escaped; JSON.stringify took about 450 µs of the recording's worker per page on the machine the
 * bench runs on, a loop over one byte at a time about 190 µs, one that looks at sixteen bytes at once
 * about 110 µs (183 -> 109 µs), and this one, which escapes every byte of those sixteen that needs it
 * before it looks at the next sixteen, about 55 µs (107 -> 53 µs; the page's slices escaped 1,000
 * times, medians of three). The text is encoded into the module's memory, escaped there, and the bytes
 * copied out. A text that is not well formed (a lone surrogate, which JSON.stringify writes as `\udXXX`
 * and UTF-8 cannot hold) and a Node without WebAssembly (`--jitless`) are escaped by JSON.stringify,
 * as before.
 *
 * The module, as its text format would write it (a hand-assembled binary, built below). Sixteen bytes
 * are looked at at once (WebAssembly's 128-bit SIMD): copied out whole when none must be escaped, else
 * copied in runs between the bytes to escape, each found from the mask (a quote in JSON is one byte in
 * eight or so: most blocks hold one or two):
 *
 *   (memory (export "memory") 16)             ;; [0,16) hex digits, [16,48) one-letter escapes
 *   (func (export "escape") (param $src i32) (param $n i32) (param $dst i32) (result i32)
 *     (local $end i32) (local $c i32) (local $letter i32) (local $mask i32)
 *     (local $v v128) (local $quotes v128) (local $backslashes v128) (local $spaces v128)
 *     (local $pos i32) (local $byte i32)
 *     $end = $src + $n
 *     $quotes, $backslashes, $spaces = i8x16.splat('"'), i8x16.splat('\'), i8x16.splat(32)
 *     loop:
 *       if $end - $src >= 16:
 *         $v = v128.load($src)
 *         $mask = i8x16.bitmask($v == $quotes | $v == $backslashes | $v <u $spaces)
 *         if $mask == 0: v128.store($dst, $v); $src += 16; $dst += 16; continue
 *         $pos = 0                                ;; the block's next byte to copy
 *         do:
 *           $c = ctz($mask)                       ;; the next byte to escape
 *           v128.store($dst, v128.load($src + $pos)); $dst += $c - $pos   ;; the run before it
 *           $byte = load8_u($src + $c); store8($dst, '\')
 *           if $byte >= 32: store8($dst + 1, $byte); $dst += 2         ;; \" and \\
 *           else: escapeControl
 *           $pos = $c + 1; $mask &= $mask - 1
 *         while $mask != 0
 *         v128.store($dst, v128.load($src + $pos)); $dst += 16 - $pos   ;; the run after the last
 *         $src += 16; continue
 *       if $src >= $end: break                    ;; under sixteen bytes left: one at a time
 *       $byte = load8_u($src); $src += 1
 *       if $byte >= 32 and $byte != '"' and $byte != '\': store8($dst, $byte); $dst += 1; continue
 *       store8($dst, '\')
 *       if $byte >= 32: store8($dst + 1, $byte); $dst += 2; continue          ;; \" and \\
 *       escapeControl
 *     return $dst)
 *   escapeControl:                            ;; after the backslash at $dst
 *     $letter = load8_u(16 + $byte)
 *     if $letter: store8($dst + 1, $letter); $dst += 2                  ;; \b \t \n \f \r
 *     else: store "u00" and the two hex digits of $byte at $dst + 1; $dst += 6 ;; \u00XX
 *
 * The 16 bytes stored whole may run up to 15 bytes past what is kept, and a run's 16 bytes loaded may
 * read up to 16 past the text (into the output's place, never kept); the memory has room for both.
 */

/** UTF-16 units escaped at a time: their UTF-8 (at most 3 bytes each) and its escape fit the memory. */
export const ESCAPE_SLICE = 16_384;
const INPUT_AT = 64;
const OUTPUT_AT = INPUT_AT + ESCAPE_SLICE * 3;
/** 16 pages of 64 KiB: the output is at most 6 bytes per input byte. */
const MEMORY_PAGES = 16;

/** Unsigned and signed LEB128, as WebAssembly writes integers. */
function unsigned(value: number): number[] {
  const bytes: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    bytes.push(byte);
  } while (value !== 0);
  return bytes;
}

function signed(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    if ((value === 0 && (byte & 0x40) === 0) || (value === -1 && (byte & 0x40) !== 0)) {
      bytes.push(byte);
      return bytes;
    }
    bytes.push(byte | 0x80);
  }
}

const [SRC, N, DST, END, C, LETTER, MASK] = [0, 1, 2, 3, 4, 5, 6];
const [V, QUOTES, BACKSLASHES, SPACES] = [7, 8, 9, 10];
const [POS, BYTE] = [11, 12];
const get = (local: number) => [0x20, local];
const set = (local: number) => [0x21, local];
const tee = (local: number) => [0x22, local];
const i32 = (value: number) => [0x41, ...signed(value)];
const ADD = 0x6a;
const SUB = 0x6b;
const EQZ = 0x45;
const CTZ = 0x68;
const AND = 0x71;
const SHR_U = 0x76;
const NE = 0x47;
const GE_U = 0x4f;
/** load8_u / store8 with alignment 0 and a constant offset. */
const load8 = (offset: number) => [0x2d, 0, ...unsigned(offset)];
const store8 = (offset: number) => [0x3a, 0, ...unsigned(offset)];
/** 128-bit SIMD: the 0xfd prefix and the instruction's number (all below 128: one LEB128 byte). */
const simd = (code: number, ...immediates: number[]) => [0xfd, code, ...immediates];
const V128_LOAD = simd(0x00, 0, 0);
const V128_STORE = simd(0x0b, 0, 0);
const SPLAT = simd(0x0f);
const EQ8 = simd(0x23);
const LT8_U = simd(0x26);
const OR = simd(0x50);
const BITMASK = simd(0x64);
const IF = [0x04, 0x40];
const ELSE = 0x05;
const END_BLOCK = 0x0b;
/** Branch to the loop's start from inside `if`s (depth: how many) or from the loop's own level (depth 0). */
const next = (depth: number) => [0x0c, depth];
const advance = (by: number) => [...get(DST), ...i32(by), ADD, ...set(DST)];

/**
 * After the backslash at $dst: the rest of a control character's escape (in $byte), a short one
 * (`\n`) or `\u00XX`, and $dst past it.
 */
// biome-ignore format: one group of instructions per line
const escapeControl = (byte: number) => [
  ...get(byte), ...load8(16), ...set(LETTER),
  ...get(LETTER),
  ...IF, ...get(DST), ...get(LETTER), ...store8(1), ...advance(2),
  ELSE,
  ...get(DST), ...i32(117), ...store8(1),
  ...get(DST), ...i32(48), ...store8(2),
  ...get(DST), ...i32(48), ...store8(3),
  ...get(DST), ...get(byte), ...i32(4), SHR_U, ...load8(0), ...store8(4),
  ...get(DST), ...get(byte), ...i32(15), AND, ...load8(0), ...store8(5),
  ...advance(6),
  END_BLOCK,
];

// biome-ignore format: one group of instructions per line, as the comment at the top reads them
const BODY = [
  ...get(SRC), ...get(N), ADD, ...set(END),
  ...i32(34), ...SPLAT, ...set(QUOTES),
  ...i32(92), ...SPLAT, ...set(BACKSLASHES),
  ...i32(32), ...SPLAT, ...set(SPACES),
  0x02, 0x40, // block: the loop's exit
  0x03, 0x40, // loop
  ...get(END), ...get(SRC), SUB, ...i32(16), GE_U,
  ...IF,
  ...get(SRC), ...V128_LOAD, ...set(V),
  ...get(V), ...get(QUOTES), ...EQ8, ...get(V), ...get(BACKSLASHES), ...EQ8, ...OR, ...get(V), ...get(SPACES), ...LT8_U, ...OR,
  ...BITMASK, ...tee(MASK), EQZ,
  ...IF, ...get(DST), ...get(V), ...V128_STORE, ...get(SRC), ...i32(16), ADD, ...set(SRC), ...advance(16), ...next(2), END_BLOCK,
  ...i32(0), ...set(POS),
  0x03, 0x40, // loop: each byte to escape in the sixteen
  ...get(MASK), CTZ, ...set(C),
  ...get(DST), ...get(SRC), ...get(POS), ADD, ...V128_LOAD, ...V128_STORE,
  ...get(DST), ...get(C), ADD, ...get(POS), SUB, ...set(DST),
  ...get(SRC), ...get(C), ADD, ...load8(0), ...set(BYTE),
  ...get(DST), ...i32(92), ...store8(0),
  ...get(BYTE), ...i32(32), GE_U,
  ...IF, ...get(DST), ...get(BYTE), ...store8(1), ...advance(2),
  ELSE, ...escapeControl(BYTE),
  END_BLOCK,
  ...get(C), ...i32(1), ADD, ...set(POS),
  ...get(MASK), ...get(MASK), ...i32(1), SUB, AND, ...tee(MASK),
  0x0d, 0, // again while a byte is left to escape
  END_BLOCK, // loop
  ...get(DST), ...get(SRC), ...get(POS), ADD, ...V128_LOAD, ...V128_STORE,
  ...get(DST), ...i32(16), ADD, ...get(POS), SUB, ...set(DST),
  ...get(SRC), ...i32(16), ADD, ...set(SRC),
  ...next(1),
  END_BLOCK,
  ...get(SRC), ...get(END), GE_U, 0x0d, 1, // leave when $src >= $end
  ...get(SRC), ...load8(0), ...set(BYTE),
  ...get(SRC), ...i32(1), ADD, ...set(SRC),
  ...get(BYTE), ...i32(32), GE_U, ...get(BYTE), ...i32(34), NE, AND, ...get(BYTE), ...i32(92), NE, AND,
  ...IF, ...get(DST), ...get(BYTE), ...store8(0), ...advance(1), ...next(1), END_BLOCK,
  ...get(DST), ...i32(92), ...store8(0),
  ...get(BYTE), ...i32(32), GE_U,
  ...IF, ...get(DST), ...get(BYTE), ...store8(1), ...advance(2), ...next(1), END_BLOCK,
  ...escapeControl(BYTE),
  ...next(0),
  END_BLOCK, // loop
  END_BLOCK, // block
  ...get(DST),
  END_BLOCK, // function
];

/** The memory's first 48 bytes: the hex digits, then the letter of each control character's short escape. */
function tables(): number[] {
  const bytes = new Array<number>(48).fill(0);
  for (const [index, char] of [...'0123456789abcdef'].entries()) bytes[index] = char.charCodeAt(0);
  for (const [code, letter] of [
    [8, 'b'],
    [9, 't'],
    [10, 'n'],
    [12, 'f'],
    [13, 'r'],
  ] as const)
    bytes[16 + code] = letter.charCodeAt(0);
  return bytes;
}

function moduleBytes(): Uint8Array {
  const section = (id: number, bytes: number[]) => [id, ...unsigned(bytes.length), ...bytes];
  const name = (text: string) => [...unsigned(text.length), ...Buffer.from(text)];
  const locals = [3, 4, 0x7f, 4, 0x7b, 2, 0x7f]; // four i32 locals, four v128, two i32
  const body = [...locals, ...BODY];
  const data = tables();
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0],
    ...section(1, [1, 0x60, 3, 0x7f, 0x7f, 0x7f, 1, 0x7f]), // type: (i32 i32 i32) -> i32
    ...section(3, [1, 0]), // one function of that type
    ...section(5, [1, 0, MEMORY_PAGES]), // memory
    ...section(7, [2, ...name('memory'), 2, 0, ...name('escape'), 0, 0]), // exports
    ...section(10, [1, ...unsigned(body.length), ...body]), // code
    ...section(11, [1, 0, ...i32(0), END_BLOCK, ...unsigned(data.length), ...data]), // data at 0
  ]);
}

export interface JsonEscaper {
  /**
   * The UTF-8 bytes of `text` escaped as inside a JSON string, at most ESCAPE_SLICE units long (a view
   * of the module's memory, valid until the next call); undefined when JSON.stringify must escape it.
   */
  escape(text: string): Uint8Array | undefined;
}

/** What is used of WebAssembly (the project's TypeScript libraries do not declare it). */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

/** String.prototype.isWellFormed (Node 20; TypeScript declares it from ES2024). */
const isWellFormed = (text: string) => (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** The escaper, or undefined where this Node has no WebAssembly. */
export function createJsonEscaper(): JsonEscaper | undefined {
  const wasm = (globalThis as { WebAssembly?: WebAssemblyApi }).WebAssembly;
  let exports: Record<string, unknown>;
  try {
    if (wasm === undefined) return undefined;
    exports = new wasm.Instance(new wasm.Module(moduleBytes())).exports;
  } catch {
    return undefined;
  }
  const memory = exports.memory as { buffer: ArrayBuffer };
  const escapeBytes = exports.escape as (source: number, length: number, target: number) => number;
  // The memory never grows, so this view of it stays valid.
  const bytes = Buffer.from(memory.buffer);
  return {
    escape(text) {
      if (text.length > ESCAPE_SLICE || !isWellFormed(text)) return undefined;
      const length = bytes.write(text, INPUT_AT, 'utf8');
      const end = escapeBytes(INPUT_AT, length, OUTPUT_AT);
      return bytes.subarray(OUTPUT_AT, end);
    },
  };
}
